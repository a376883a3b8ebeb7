#!/bin/sh
# install-deps.sh GROUP... — install the Debian packages roi needs, if missing.
#
# Groups: host (plugin, runtime, estimator, tests; strace for t0100's fsync check; valgrind, lcov, gcovr and
# chromium read roi report's formats in t0610), avr (avr-gcc, avr-libc,
# simavr), arm (arm-none-eabi-gcc, newlib, QEMU), bench, torture (GCC's
# sources, for its gcc.c-torture tests), csmith (the random program generator
# and its csmith.h), fuzz (clang and its libFuzzer runtime, for make fuzz).
# Runs apt-get only when something is missing, so a machine that has everything
# never touches the network.  Needs root for the install itself.
set -e

packages () {
	case "$1" in
	host)  echo "gcc g++ make pkg-config procps help2man gcc-12-plugin-dev libcjson-dev libelf-dev libdw-dev libsimavr-dev jq libxml2-utils valgrind lcov gcovr chromium strace" ;;
	avr)   echo "gcc-avr avr-libc binutils-avr simavr cmake" ;;
	arm)   echo "gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi qemu-system-arm" ;;
	bench) echo "valgrind bc time gcc-12-source libcjson-dev" ;;
	torture) echo "gcc-12-source" ;;
	csmith) echo "csmith libcsmith-dev" ;;
	fuzz)  echo "clang libclang-rt-14-dev" ;;
	*)     echo "install-deps.sh: unknown group '$1'" >&2; exit 2 ;;
	esac
}

wanted=
for group in "${@:-host}"; do
	wanted="$wanted $(packages "$group")"
done

missing=
for p in $wanted; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "roi: missing Debian packages:$missing (install them, or run this as root)" >&2
	exit 1
fi
echo "roi: installing Debian packages:$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
