# roi.mk — cycle and energy budgets in a firmware build (docs/budgets.md).
#
# A firmware project's Makefile sets a few variables and includes this file:
#
#   ROI_TARGET    := avr                            # avr (simavr) or cortex-m (QEMU mps2-an386)
#   ROI_MCU       := atmega32u4                     # avr: -mmcu and the simavr core
#   ROI_MODEL     := atmega32u4                     # a model's name, or a path
#   ROI_FIRMWARES := app                            # one or more firmware names
#   app_SOURCES   := src/main.c src/sensor.c        # compiled with the plugin
#   app_BUDGETS   := budgets.txt
#   include $(shell pkg-config --variable=makedir roi)/roi.mk    # an installed roi
#   # or: include /path/to/roi/contrib/make/roi.mk, a roi tree built with 'make all-targets'
#
# and 'make energy-check' builds an instrumented variant of each firmware (beside the project's
# own build, which stays untouched), runs it in the simulator and checks its budgets: one line per
# budget, JUnit XML for CI in $(ROI_OUT)/NAME.junit.xml, and make fails when a budget failed.
#
# Targets:
#   roi-build        the instrumented firmwares, $(ROI_OUT)/NAME.elf
#   roi-run          their profiles, $(ROI_OUT)/NAME.elf.roi (simavr: exact cycles; QEMU: counts)
#   energy-check     roi budget check for every firmware (all are checked, then make fails if any did)
#   energy-baseline  keep the current firmwares and profiles as the baseline ($(ROI_OUT)/baseline)
#   energy-diff      roi budget diff: how each budget moved since the baseline
#   roi-clean        remove $(ROI_OUT)
#
# Per firmware, optionally:
#   NAME_CFLAGS         more compiler flags (-DSENSOR_MOCK, -I...)
#   NAME_PLAIN_SOURCES  sources compiled without the plugin (start-up code, a vendor HAL)
#   NAME_FILTER         a roi filter file (docs/regions.md): which functions are counted, which
#                       get hooks; on avr the simavr hook port is linked in, so the run measures
#                       the hooked functions and loops to the cycle (ROI_CHECK_FLAGS=--measured)
#
# Defaults that may be overridden: ROI (the roi command), ROI_FW_PLUGIN, ROI_FW_CC, ROI_OPT (-O0, what
# the shipped models were derived for), ROI_FREQ (16000000), ROI_OUT (build/roi),
# ROI_CHECK_FLAGS (e.g. --strict, --measured), ROI_JUNIT (yes).

ROI_MK_DIR      := $(dir $(lastword $(MAKEFILE_LIST)))
# Where roi's files are: a source tree (this file is TREE/contrib/make/roi.mk) or an installed roi
# (PREFIX/share/roi/make/roi.mk).
ifneq ($(wildcard $(ROI_MK_DIR)../../gcc-plugin),)
ROI_DIR         ?= $(abspath $(ROI_MK_DIR)../..)
ROI             ?= $(ROI_DIR)/build/bin/roi
roi_plugin_avr  := $(ROI_DIR)/build/avr/roi.so
roi_plugin_arm  := $(ROI_DIR)/build/arm/roi.so
roi_ports       := $(ROI_DIR)/runtime/ports
roi_boards      := $(ROI_DIR)/contrib/cortex-m
else
ROI_PREFIX      ?= $(abspath $(ROI_MK_DIR)../../..)
ROI             ?= $(ROI_PREFIX)/bin/roi
roi_plugin_avr  := $(ROI_PREFIX)/lib/roi/plugin/avr/roi.so
roi_plugin_arm  := $(ROI_PREFIX)/lib/roi/plugin/arm/roi.so
roi_ports       := $(ROI_PREFIX)/share/roi/ports
roi_boards      := $(ROI_PREFIX)/share/roi/cortex-m
endif
ROI_TARGET      ?= avr
ROI_MCU         ?= atmega32u4
ROI_FREQ        ?= 16000000
ROI_OPT         ?= -O0
ROI_OUT         ?= build/roi
ROI_MODEL       ?=
ROI_CHECK_FLAGS ?=
ROI_JUNIT       ?= yes

# What this include defines must not become the project's default goal.
roi_saved_goal := $(.DEFAULT_GOAL)

ifeq ($(ROI_TARGET),avr)
ROI_FW_CC       ?= avr-gcc
ROI_FW_PLUGIN   ?= $(roi_plugin_avr)
roi_arch        := -mmcu=$(ROI_MCU)
roi_ldflags     :=
roi_plain_extra :=
roi_hook_port   := $(roi_ports)/roi-region-simavr.c
roi_run         := --target avr --mcu $(ROI_MCU) --freq $(ROI_FREQ)
else ifeq ($(ROI_TARGET),cortex-m)
ROI_FW_CC       ?= arm-none-eabi-gcc
ROI_FW_PLUGIN   ?= $(roi_plugin_arm)
roi_board       := $(roi_boards)/mps2-an386
roi_arch        := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
roi_ldflags     := -T $(roi_board)/mps2-an386.ld -nostartfiles --specs=nano.specs --specs=rdimon.specs
roi_plain_extra := $(roi_board)/startup.c
roi_hook_port   :=
roi_run         := --target cortex-m --machine mps2-an386
else
$(error roi.mk: ROI_TARGET is '$(ROI_TARGET)': avr or cortex-m)
endif

ifeq ($(strip $(ROI_FIRMWARES)),)
$(error roi.mk: set ROI_FIRMWARES (and NAME_SOURCES, NAME_BUDGETS for each) before including it)
endif

roi_model_flag = $(if $(ROI_MODEL),--model $(ROI_MODEL))

# The sources of firmware $(1) compiled without the plugin, and their objects in $(ROI_OUT)/NAME.o/;
# the hook port is built -Os, as runtime/ports/ says, whatever ROI_OPT is.
roi_plain_src = $($(1)_PLAIN_SOURCES) $(roi_plain_extra)
roi_port_src  = $(if $($(1)_FILTER),$(roi_hook_port))
roi_plain_obj = $(foreach s,$(call roi_plain_src,$(1)) $(call roi_port_src,$(1)),$(ROI_OUT)/$(1).o/$(notdir $(s:.c=.o)))

# roi_plain_rule NAME SOURCE FLAGS: the object of a source compiled without the plugin
define roi_plain_rule
$(ROI_OUT)/$(1).o/$(notdir $(2:.c=.o)): $(2)
	@mkdir -p $$(@D)
	$(ROI_FW_CC) $(roi_arch) $(3) -c $$< -o $$@
endef

define roi_firmware_rules
ifeq ($$(strip $$($(1)_SOURCES)),)
$$(error roi.mk: firmware $(1) has no $(1)_SOURCES)
endif
ifeq ($$(strip $$($(1)_BUDGETS)),)
$$(error roi.mk: firmware $(1) has no $(1)_BUDGETS)
endif

$(ROI_OUT)/$(1).elf: $$($(1)_SOURCES) $$(call roi_plain_obj,$(1)) $$($(1)_FILTER) $$(wildcard $(ROI_FW_PLUGIN))
	@mkdir -p $(ROI_OUT)
	$(ROI_FW_CC) $(roi_arch) $(ROI_OPT) $$($(1)_CFLAGS) -fplugin=$(ROI_FW_PLUGIN) \
		$$(if $$($(1)_FILTER),-fplugin-arg-roi-filter=$$($(1)_FILTER)) \
		$$($(1)_SOURCES) $$(call roi_plain_obj,$(1)) $(roi_ldflags) -o $$@

$(ROI_OUT)/$(1).elf.roi: $(ROI_OUT)/$(1).elf
	$(ROI) run $(roi_run) --output $$@ $$<
endef

$(foreach f,$(ROI_FIRMWARES),$(eval $(call roi_firmware_rules,$(f)))\
	$(foreach s,$(call roi_plain_src,$(f)),$(eval $(call roi_plain_rule,$(f),$(s),$(ROI_OPT) $($(f)_CFLAGS))))\
	$(foreach s,$(call roi_port_src,$(f)),$(eval $(call roi_plain_rule,$(f),$(s),-Os))))

# roi_check NAME: the check of one firmware (a shell command)
roi_check = $(ROI) budget check $(roi_model_flag) --budgets $($(1)_BUDGETS) \
	$(if $(filter yes,$(ROI_JUNIT)),--junit $(ROI_OUT)/$(1).junit.xml) $(ROI_CHECK_FLAGS) \
	$(ROI_OUT)/$(1).elf $(ROI_OUT)/$(1).elf.roi
roi_diff = $(ROI) budget diff $(roi_model_flag) --budgets $($(1)_BUDGETS) $(filter --measured,$(ROI_CHECK_FLAGS)) \
	--old-program $(ROI_OUT)/baseline/$(1).elf --new-program $(ROI_OUT)/$(1).elf \
	$(ROI_OUT)/baseline/$(1).elf.roi $(ROI_OUT)/$(1).elf.roi

.PHONY: roi-build roi-run energy-check energy-baseline energy-diff roi-clean
roi-build: $(ROI_FIRMWARES:%=$(ROI_OUT)/%.elf)
roi-run: $(ROI_FIRMWARES:%=$(ROI_OUT)/%.elf.roi)

# Every firmware is checked, so one failing budget does not hide another's.
energy-check: roi-run
	@status=0; $(foreach f,$(ROI_FIRMWARES),echo '$(call roi_check,$(f))'; $(call roi_check,$(f)) || status=1;) \
	exit $$status

energy-baseline: roi-run
	@mkdir -p $(ROI_OUT)/baseline
	cp $(foreach f,$(ROI_FIRMWARES),$(ROI_OUT)/$(f).elf $(ROI_OUT)/$(f).elf.roi) $(ROI_OUT)/baseline/

energy-diff: roi-run
	@$(foreach f,$(ROI_FIRMWARES),echo '$(call roi_diff,$(f))' && $(call roi_diff,$(f)) &&) true

roi-clean:
	rm -rf $(ROI_OUT)

.DEFAULT_GOAL := $(roi_saved_goal)
