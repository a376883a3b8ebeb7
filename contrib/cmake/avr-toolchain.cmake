# avr-toolchain.cmake — a minimal CMake toolchain file for avr-gcc (Debian's gcc-avr), enough to
# build the examples' firmware:  cmake -DCMAKE_TOOLCHAIN_FILE=contrib/cmake/avr-toolchain.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR avr)
set(CMAKE_C_COMPILER avr-gcc)
# a bare-metal compiler cannot link a test program without its -mmcu: test by compiling only
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
