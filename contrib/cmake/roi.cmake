# roi.cmake — cycle and energy budgets in a CMake firmware build (docs/budgets.md).
#
# In a firmware project configured for its cross compiler (avr-gcc, arm-none-eabi-gcc):
#
#   find_package(roi REQUIRED)                      # an installed roi (CMAKE_PREFIX_PATH=PREFIX)
#   # or: set(ROI_DIR /path/to/roi) and include(${ROI_DIR}/contrib/cmake/roi.cmake), a roi tree
#   # built with 'make all-targets
#   roi_energy_check(app
#     SOURCES  src/main.c src/sensor.c              # compiled with the plugin
#     BUDGETS  ${CMAKE_CURRENT_SOURCE_DIR}/budgets.txt
#     MODEL    atmega32u4                           # a model's name, or a path
#     MCU      atmega32u4)                          # avr: -mmcu and the simavr core
#
# then 'cmake --build . --target energy-check' builds an instrumented variant of the firmware
# (target app-roi, beside the project's own), runs it in the simulator (roi run: simavr for avr,
# QEMU's mps2-an386 for cortex-m) and checks its budgets (roi budget check, JUnit XML in
# app-roi.junit.xml); the build fails when a budget failed. More options:
#
#   TARGET avr|cortex-m     the simulator (default avr)
#   FREQ HZ                 avr: the clock simavr runs at (default 16000000)
#   OPT -O0                 the optimisation level (default -O0, what the shipped models are for)
#   FILTER FILE             a roi filter file (docs/regions.md); on avr the simavr hook port is
#                           linked in, so hooked functions and loops are measured to the cycle
#   PLAIN_SOURCES ...       sources compiled without the plugin (start-up code, a vendor HAL)
#   COMPILE_OPTIONS ...     more compiler options for every source
#   CHECK_OPTIONS ...       more 'roi budget check' options (--measured, --strict)
#
# Each call adds a target energy-check-NAME, and energy-check runs them all.

cmake_minimum_required(VERSION 3.13)

# Where roi's files are: a source tree (this file is TREE/contrib/cmake/roi.cmake) or an installed
# roi (PREFIX/share/roi/cmake/roi.cmake; roiConfig.cmake includes it).
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../../gcc-plugin")
  if(NOT DEFINED ROI_DIR)
    get_filename_component(ROI_DIR "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
  endif()
  set(ROI "${ROI_DIR}/build/bin/roi" CACHE FILEPATH "the roi command")
  set(ROI_PLUGIN_AVR "${ROI_DIR}/build/avr/roi.so")
  set(ROI_PLUGIN_ARM "${ROI_DIR}/build/arm/roi.so")
  set(ROI_PORTS "${ROI_DIR}/runtime/ports")
  set(ROI_BOARDS "${ROI_DIR}/contrib/cortex-m")
else()
  get_filename_component(ROI_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
  set(ROI "${ROI_PREFIX}/bin/roi" CACHE FILEPATH "the roi command")
  set(ROI_PLUGIN_AVR "${ROI_PREFIX}/lib/roi/plugin/avr/roi.so")
  set(ROI_PLUGIN_ARM "${ROI_PREFIX}/lib/roi/plugin/arm/roi.so")
  set(ROI_PORTS "${ROI_PREFIX}/share/roi/ports")
  set(ROI_BOARDS "${ROI_PREFIX}/share/roi/cortex-m")
endif()

function(roi_energy_check name)
  cmake_parse_arguments(R "" "TARGET;MCU;FREQ;OPT;MODEL;BUDGETS;FILTER"
                        "SOURCES;PLAIN_SOURCES;COMPILE_OPTIONS;CHECK_OPTIONS" ${ARGN})
  if(NOT R_SOURCES OR NOT R_BUDGETS)
    message(FATAL_ERROR "roi_energy_check(${name}): SOURCES and BUDGETS are required")
  endif()
  if(NOT R_TARGET)
    set(R_TARGET avr)
  endif()
  if(NOT R_MCU)
    set(R_MCU atmega32u4)
  endif()
  if(NOT R_FREQ)
    set(R_FREQ 16000000)
  endif()
  if(NOT R_OPT)
    set(R_OPT -O0)
  endif()

  set(fw ${name}-roi)
  set(plain ${R_PLAIN_SOURCES})
  set(link_options "")
  if(R_TARGET STREQUAL "avr")
    set(plugin "${ROI_PLUGIN_AVR}")
    set(arch -mmcu=${R_MCU})
    set(run_options --target avr --mcu ${R_MCU} --freq ${R_FREQ})
    if(R_FILTER)
      # the port is built -Os, as runtime/ports/ says, whatever OPT is
      add_library(${fw}-port OBJECT "${ROI_PORTS}/roi-region-simavr.c")
      target_compile_options(${fw}-port PRIVATE ${arch} -Os)
      set(port $<TARGET_OBJECTS:${fw}-port>)
    endif()
  elseif(R_TARGET STREQUAL "cortex-m")
    set(board "${ROI_BOARDS}/mps2-an386")
    set(plugin "${ROI_PLUGIN_ARM}")
    set(arch -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
    list(APPEND plain "${board}/startup.c")
    set(link_options -T "${board}/mps2-an386.ld" -nostartfiles --specs=nano.specs --specs=rdimon.specs)
    set(run_options --target cortex-m --machine mps2-an386)
  else()
    message(FATAL_ERROR "roi_energy_check(${name}): TARGET is '${R_TARGET}': avr or cortex-m")
  endif()

  # Sources without the plugin go through an object library: compile options are per target, and
  # the project's own targets keep theirs.
  if(plain)
    add_library(${fw}-plain OBJECT ${plain})
    target_compile_options(${fw}-plain PRIVATE ${arch} ${R_OPT} ${R_COMPILE_OPTIONS})
    set(plain_objects $<TARGET_OBJECTS:${fw}-plain>)
  endif()
  add_executable(${fw} EXCLUDE_FROM_ALL ${R_SOURCES} ${plain_objects} ${port})
  set_target_properties(${fw} PROPERTIES SUFFIX ".elf")
  target_compile_options(${fw} PRIVATE ${arch} ${R_OPT} ${R_COMPILE_OPTIONS} "-fplugin=${plugin}")
  if(R_FILTER)
    get_filename_component(filter "${R_FILTER}" ABSOLUTE)
    target_compile_options(${fw} PRIVATE "-fplugin-arg-roi-filter=${filter}")
    set_property(SOURCE ${R_SOURCES} APPEND PROPERTY OBJECT_DEPENDS "${filter}")
  endif()
  target_link_options(${fw} PRIVATE ${arch} ${link_options})

  set(elf $<TARGET_FILE:${fw}>)
  set(profile "${CMAKE_CURRENT_BINARY_DIR}/${fw}.elf.roi")
  add_custom_command(OUTPUT "${profile}"
    COMMAND "${ROI}" run ${run_options} --output "${profile}" "${elf}"
    DEPENDS ${fw}
    COMMENT "roi run ${fw}"
    VERBATIM)
  set(model_options "")
  if(R_MODEL)
    set(model_options --model "${R_MODEL}")
  endif()
  add_custom_target(energy-check-${name}
    COMMAND "${ROI}" budget check ${model_options} --budgets "${R_BUDGETS}"
            --junit "${CMAKE_CURRENT_BINARY_DIR}/${fw}.junit.xml" ${R_CHECK_OPTIONS} "${elf}" "${profile}"
    DEPENDS "${profile}"
    COMMENT "roi budget check ${name}"
    VERBATIM)
  if(NOT TARGET energy-check)
    add_custom_target(energy-check)
  endif()
  add_dependencies(energy-check energy-check-${name})
endfunction()
