/*
 * The PC board's devices, built as a user's -device builds them (qdev),
 * in QEMU 7.2's order for the devices this tree has: the PCI host bridge
 * (at /machine/q35 or /machine/i440fx), the ISA bus with QEMU's
 * isabus-bridge standing in for ICH9-LPC/PIIX3, the ACPI PM block, then
 * on the ISA bus the RTC, the PC speaker port, the serial ports, the
 * i8042 and port 0x92.  ISA IRQ n is GSI n.
 */
#include <string.h>

#include "exec/memory.h"
#include "hw/acpi/pm.h"
#include "hw/i386/acpi-build.h"
#include "hw/audio/pcspk.h"
#include "hw/char/serial.h"
#include "hw/input/i8042.h"
#include "hw/isa/isa.h"
#include "hw/pci-host/pc-pci-host.h"
#include "hw/qdev-properties.h"
#include "hw/rtc/mc146818rtc.h"
#include "hw/sysbus.h"
#include "sysemu/device.h"

static bool nodefaults, nographic;

void qemu_devices_set_nodefaults(bool on)
{
    nodefaults = on;
}

void qemu_devices_set_nographic(bool on)
{
    nographic = on;
}

bool qemu_devices_nographic(void)
{
    return nographic;
}

static bool pc_isa_device(ISABus *bus, const char *type, ISADevice **out,
                          Error **errp)
{
    ISADevice *dev = isa_new(type);

    *out = dev;
    return isa_realize_and_unref(dev, bus, errp);
}

bool pc_devices_create(MachineState *ms, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    bool q35 = mc->family && !strcmp(mc->family, "pc-q35");
    uint64_t below_4g = memory_below_4g();
    const char *default_serial = NULL;
    DeviceState *host;
    ISADevice *rtc, *dev;
    ISABus *isa;
    qemu_irq *gsi;

    host = qdev_new(q35 ? TYPE_Q35_HOST_DEVICE : TYPE_I440FX_PCI_HOST_BRIDGE);
    object_property_add_child(OBJECT(ms), q35 ? "q35" : "i440fx",
                              OBJECT(host));
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(host), errp)) {
        return false;
    }
    isa = isa_bus_new(NULL, get_system_io(), errp);
    if (!isa) {
        return false;
    }
    gsi = pc_gsi_irqs(ISA_NUM_IRQS);
    isa_bus_irqs(isa, gsi);     /* which copies them */
    g_free(gsi);
    if (acpi_enabled(ms)) {
        DeviceState *pm = qdev_new(TYPE_PC_ACPI_PM);

        qdev_prop_set_bit(pm, "x-ich9", q35);
        if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(pm), errp)) {
            return false;
        }
        qdev_connect_gpio_out_named(pm, "sci", 0,
                                    isa_get_irq(NULL, ACPI_PM_SCI_GSI));
    }

    /* The RTC's year counts from 0 on the PC (QEMU 7.2 reads 0 here) */
    rtc = isa_new(TYPE_MC146818_RTC);
    qdev_prop_set_int32(DEVICE(rtc), "base_year", 0);
    if (!isa_realize_and_unref(rtc, isa, errp)) {
        return false;
    }
    qdev_connect_gpio_out(DEVICE(rtc), 0,
                          isa_get_irq(rtc, object_property_get_int(
                                               OBJECT(rtc), "irq", NULL)));
    rtc_set_pc_memory(rtc, below_4g, ms->ram_size - below_4g, ms->smp.cpus);

    if (!pc_isa_device(isa, TYPE_PC_SPEAKER, &dev, errp)) {
        return false;
    }
    /* QEMU's default serial port yields to any serial the user asked for */
    if (!nodefaults && !serial_hds_count() &&
        !qemu_device_given(TYPE_ISA_SERIAL)) {
        default_serial = nographic ? "mon:stdio" : "vc";
    }
    if (!serial_hds_create(isa, default_serial, errp)) {
        return false;
    }
    if (ms->i8042 && !pc_isa_device(isa, TYPE_I8042, &dev, errp)) {
        return false;
    }
    return pc_isa_device(isa, TYPE_PORT92, &dev, errp);
}
