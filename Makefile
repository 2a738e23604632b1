# QEMU's habit on top of meson: `./configure && make && make check`.
BUILD ?= build

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(BUILD)/build.ninja:
	./configure --builddir=$(BUILD)

check: all
	meson test -C $(BUILD) --print-errorlogs

clean:
	ninja -C $(BUILD) clean

.PHONY: all check clean
