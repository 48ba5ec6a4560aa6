# Sourced by benches/weight.sh and benches/weight/heap.sh.
#
# Installs from Debian what starting a window under Xvfb, typing into it and reading it back
# needs (Xvfb, Mesa's software Vulkan, xdotool, python3-xlib), and the packages of any further
# commands named as COMMAND=PACKAGE, where missing.
install_window_tools() {
  local need=() extra
  command -v Xvfb >/dev/null || need+=(xvfb)
  command -v xdotool >/dev/null || need+=(xdotool)
  /usr/bin/python3 -c 'import Xlib' 2>/dev/null || need+=(python3-xlib)
  [ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || need+=(mesa-vulkan-drivers)
  for extra in "$@"; do
    command -v "${extra%%=*}" >/dev/null || need+=("${extra#*=}")
  done
  if ((${#need[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}
