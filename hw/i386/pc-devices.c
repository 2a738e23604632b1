/*
 * The PC board's devices, built as a user's -device builds them (qdev),
 * in QEMU 7.2's order for the devices this tree has: the PCI host bridge
 * (at /machine/q35 or /machine/i440fx), the ISA bus (on PIIX3 at 01.0 on
 * i440fx; on ICH9-LPC at 1f.0, which holds the ACPI PM block, on q35),
 * then on the ISA bus the RTC, the PC
 * speaker port, the serial ports, the floppy controller (i440fx), the
 * i8042 (with the vmport and vmmouse)
 * and port 0x92, and last on
 * i440fx PIIX4_PM at 01.3.  ISA IRQ n is GSI n.
 */
#include <string.h>

#include "exec/memory.h"
#include "hw/acpi/pm.h"
#include "hw/i386/acpi-build.h"
#include "hw/i386/kvm-irqchip.h"
#include "hw/i386/pc-irqchip.h"
#include "hw/i386/vmport.h"
#include "hw/audio/pcspk.h"
#include "hw/block/fdc.h"
#include "hw/char/serial.h"
#include "hw/input/i8042.h"
#include "hw/isa/isa.h"
#include "hw/pci-host/pc-pci-host.h"
#include "hw/qdev-properties.h"
#include "hw/rtc/mc146818rtc.h"
#include "hw/i2c/i2c.h"
#include "hw/southbridge/ich9.h"
#include "hw/southbridge/piix.h"
#include "hw/nvram/fw_cfg.h"
#include "hw/sysbus.h"
#include "hw/timer/hpet.h"
#include "sysemu/device.h"
#include "sysemu/kvm.h"

static bool nodefaults, nographic;

/* The board's PM function (PIIX4_PM or ICH9-LPC), for the firmware init */
static PCIDevice *board_pm_function;
static PCIBus *board_pci_bus;

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

/*
 * The i8042 and, with -machine vmport=on (what auto means on both PCs in
 * QEMU 7.2, which reads back "on" afterwards), the vmport and the vmmouse
 * linked to the i8042: without an i8042 there is no vmport either.
 */
static bool pc_i8042_create(MachineState *ms, ISABus *isa, Error **errp)
{
    ISADevice *kbd, *mouse;
    char *path;
    bool ok;

    if (!pc_isa_device(isa, TYPE_I8042, &kbd, errp)) {
        return false;
    }
    if (ms->vmport != ON_OFF_AUTO_ON) {
        return true;
    }
    if (!pc_isa_device(isa, TYPE_VMPORT, &mouse, errp)) {
        return false;
    }
    mouse = isa_new(TYPE_VMMOUSE);
    path = object_get_canonical_path(OBJECT(kbd));
    ok = object_property_set_str(OBJECT(mouse), "i8042", path, errp) &&
         isa_realize_and_unref(mouse, isa, errp);
    g_free(path);
    return ok;
}

/*
 * -machine smm=: auto means where the accelerator offers it (QEMU 7.2's
 * x86_machine_is_smm_enabled: always under qtest, KVM_CAP_X86_SMM under KVM)
 */
bool pc_smm_enabled(MachineState *ms)
{
    return ms->smm == ON_OFF_AUTO_ON ||
           (ms->smm == ON_OFF_AUTO_AUTO && (!kvm_enabled() || kvm_has_smm()));
}

/*
 * QEMU 7.2 makes the kvmclock device under KVM, on machines up to 5.1
 * only when the first vCPU has the kvmclock feature
 */
bool pc_wants_kvmclock(MachineState *ms)
{
    X86CPU *cpu = ms->possible_cpus ? ms->possible_cpus[0].cpu : NULL;
    uint64_t kvmclock_bits = (1u << 0) | (1u << 3);

    return !MACHINE_GET_CLASS(ms)->kvmclock_if_cpu_has_it ||
           (cpu && (cpu->features[FEAT_KVM] & kvmclock_bits));
}

/*
 * The HPET at 0xfed00000, its outputs on the GSIs; its interrupt routing
 * capabilities are the board's (IRQ 2 on i440fx, IRQ 2, 8 and 16-23 on
 * q35) unless a compat entry or -global set them
 */
static bool pc_hpet_create(bool q35, DeviceState **out, Error **errp)
{
    DeviceState *hpet = qdev_new(TYPE_HPET);
    uint8_t cfg[HPET_FW_CFG_SIZE];
    qemu_irq *gsi;

    *out = hpet;
    if (!object_property_get_int(OBJECT(hpet), "hpet-intcap", NULL)) {
        qdev_prop_set_uint32(hpet, "hpet-intcap", q35 ? 0xff0104 : 0x4);
    }
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(hpet), errp)) {
        return false;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(hpet), 0, HPET_BASE);
    gsi = pc_gsi_irqs(ICH9_LPC_NUM_GSI);
    for (int i = 0; i < ICH9_LPC_NUM_GSI; i++) {
        qdev_connect_gpio_out_named(hpet, SYSBUS_DEVICE_GPIO_IRQ, i, gsi[i]);
    }
    g_free(gsi);
    hpet_fw_cfg(cfg);
    fw_cfg_add_bytes(fw_cfg_find(), FW_CFG_HPET, cfg, sizeof(cfg));
    return true;
}

bool pc_devices_create(MachineState *ms, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    bool q35 = mc->family && !strcmp(mc->family, "pc-q35");
    uint64_t below_4g = memory_below_4g();
    const char *default_serial = NULL;
    DeviceState *host;
    ISADevice *rtc, *dev;
    DeviceState *hpet = NULL, *pit;
    ISABus *isa;
    PCIBus *pci;
    qemu_irq *gsi;

    host = qdev_new(q35 ? TYPE_Q35_HOST_DEVICE : TYPE_I440FX_PCI_HOST_BRIDGE);
    object_property_add_child(OBJECT(ms), q35 ? "q35" : "i440fx",
                              OBJECT(host));
    if (q35) {
        /* the RAM split, as 7.2's board tells its host bridge */
        qdev_prop_set_uint64(host, "below-4g-mem-size", memory_below_4g());
        qdev_prop_set_uint64(host, "above-4g-mem-size",
                             memory_ram_size() - memory_below_4g());
    }
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(host), errp)) {
        return false;
    }
    pci = pc_pci_host_bus(host);
    board_pci_bus = pci;
    board_pm_function = NULL;
    if (q35) {
        PCIDevice *lpc = pci_new(PCI_DEVFN(ICH9_LPC_DEV, ICH9_LPC_FUNC), true,
                                 TYPE_ICH9_LPC_DEVICE);

        if (!pci_realize_and_unref(lpc, pci, errp)) {
            return false;
        }
        /*
         * QEMU 7.2: with ACPI PCI hot-plug and without x-keep-pci-slot-hpc
         * (pc-q35-6.1, pc_compat_6_1) PCIe slots lose native hot-plug
         */
        if (object_property_get_bool(OBJECT(lpc),
                                     "acpi-pci-hotplug-with-bridge-support",
                                     NULL) &&
            !object_property_get_bool(OBJECT(lpc), "x-keep-pci-slot-hpc",
                                      NULL)) {
            qdev_add_board_global("pcie-slot", "x-native-hotplug", "false");
        }
        isa = isa_bus_get_default();
        ich9_lpc_set_smm_enabled(lpc, pc_smm_enabled(ms));
        board_pm_function = lpc;
    } else {
        PCIDevice *piix3 = pci_new(PCI_DEVFN(1, 0), true, TYPE_PIIX3_DEVICE);

        isa = pci_realize_and_unref(piix3, pci, errp) ? isa_bus_get_default()
                                                      : NULL;
    }
    if (!isa) {
        return false;
    }
    gsi = pc_gsi_irqs(q35 ? ICH9_LPC_NUM_GSI : ISA_NUM_IRQS);
    isa_bus_irqs(isa, gsi);     /* which copies the first 16 */
    if (q35) {
        /* ICH9-LPC's "gsi" outputs are the board's GSIs (its SCI: 9) */
        for (int i = 0; i < ICH9_LPC_NUM_GSI; i++) {
            qdev_connect_gpio_out_named(DEVICE(board_pm_function), "gsi", i,
                                        gsi[i]);
        }
    }
    g_free(gsi);
    if (!pc_irqchip_create(isa, OBJECT(host), ms->pic != ON_OFF_AUTO_OFF,
                           errp) ||
        (ms->hpet && !pc_hpet_create(q35, &hpet, errp))) {
        return false;
    }
    /* The RTC's year counts from 0 on the PC (QEMU 7.2 reads 0 here) */
    rtc = isa_new(TYPE_MC146818_RTC);
    qdev_prop_set_int32(DEVICE(rtc), "base_year", 0);
    if (!isa_realize_and_unref(rtc, isa, errp)) {
        return false;
    }
    /* With an HPET the RTC's interrupt goes through it (legacy mode) */
    qdev_connect_gpio_out(DEVICE(rtc), 0,
                          hpet ? qdev_get_gpio_in(hpet, HPET_LEGACY_RTC_INT)
                               : isa_get_irq(rtc, object_property_get_int(
                                                  OBJECT(rtc), "irq", NULL)));
    rtc_set_pc_memory(rtc, below_4g, ms->ram_size - below_4g, ms->smp.cpus);
    if (!pc_irqchip_create_pit(isa, ms->pit != ON_OFF_AUTO_OFF, hpet, &pit,
                               errp)) {
        return false;
    }
    if (hpet && pit) {
        qdev_connect_gpio_out(hpet, 0, qdev_get_gpio_in(pit, 0));
    }

    dev = isa_new(TYPE_PC_SPEAKER);
    if (pit) {
        pcspk_set_pit(DEVICE(dev), pit);
    }
    if (!isa_realize_and_unref(dev, isa, errp)) {
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
    /* i440fx has a floppy controller, -nodefaults or not (q35 has none) */
    if (!q35 && !pc_isa_device(isa, TYPE_ISA_FDC, &dev, errp)) {
        return false;
    }
    if (ms->vmport == ON_OFF_AUTO_AUTO) {
        ms->vmport = ON_OFF_AUTO_ON;
    }
    if (ms->i8042 && !pc_i8042_create(ms, isa, errp)) {
        return false;
    }
    if (!pc_isa_device(isa, TYPE_PORT92, &dev, errp)) {
        return false;
    }
    /* QEMU 7.2's order: the storage and SMBus functions after the ISA
     * devices; on q35 the machine properties sata and smbus drop them */
    if (q35 && ms->sata) {
        PCIDevice *ahci = pci_new(PCI_DEVFN(ICH9_SATA1_DEV, ICH9_SATA1_FUNC),
                                  true, TYPE_ICH9_AHCI);

        if (!pci_realize_and_unref(ahci, pci, errp)) {
            return false;
        }
    }
    if (q35 && ms->smbus) {
        PCIDevice *smb = pci_new(PCI_DEVFN(ICH9_SMB_DEV, ICH9_SMB_FUNC), true,
                                 TYPE_ICH9_SMB_DEVICE);

        if (!pci_realize_and_unref(smb, pci, errp) ||
            !smbus_eeprom_init(I2C_BUS(qdev_get_child_bus(DEVICE(smb), "i2c")),
                               8, errp)) {
            return false;
        }
    }
    if (!q35) {
        PCIDevice *ide = pci_new(PCI_DEVFN(1, 1), false, TYPE_PIIX3_IDE);

        if (!pci_realize_and_unref(ide, pci, errp)) {
            return false;
        }
    }
    /* -usb: i440fx's UHCI function at 01.2 (q35's EHCI is refused) */
    if (!q35 && ms->usb &&
        !pci_realize_and_unref(pci_new(PCI_DEVFN(1, 2), false,
                                       "piix3-usb-uhci"), pci, errp)) {
        return false;
    }
    if (!q35 && acpi_enabled(ms)) {
        PCIDevice *pm = pci_new(PCI_DEVFN(1, 3), false, TYPE_PIIX4_PM);

        /* QEMU's board sets these (so -global cannot change them) */
        qdev_prop_set_uint32(DEVICE(pm), "smb_io_base", 0xb100);
        qdev_prop_set_bit(DEVICE(pm), "smm-enabled", pc_smm_enabled(ms));
        if (!pci_realize_and_unref(pm, pci, errp)) {
            return false;
        }
        qdev_connect_gpio_out(DEVICE(pm), 0,
                              isa_get_irq(NULL, ACPI_PM_SCI_GSI));
        board_pm_function = pm;
        /* the eight SPD EEPROMs QEMU 7.2 puts on the SMBus */
        if (!smbus_eeprom_init(I2C_BUS(qdev_get_child_bus(DEVICE(pm), "i2c")),
                               8, errp)) {
            return false;
        }
    }
    return true;
}

/*
 * What SeaBIOS programs before it boots a guest, for the direct-boot path
 * only (hw/i386/x86-boot.c, at start and after every reset): the PAM
 * segments 0xC0000-0xFFFFF as read/write RAM (firmware that shadowed
 * itself; the direct loader's ACPI tables live in that RAM at 0xE0000),
 * the PM block at ACPI_PM_BASE, decoding.  Firmware does this itself once
 * this tree runs it by default (issue 13).
 */
void pc_devices_machine_ready(void)
{
    PCIDevice *pm = board_pm_function;

    if (pm && pm->devfn == PCI_DEVFN(ICH9_LPC_DEV, ICH9_LPC_FUNC)) {
        ich9_lpc_machine_ready(pm);
    }
}

#define PAM_I440FX 0x59
#define PAM_MCH 0x90
#define PAM_ALL_RAM 0x33

void pc_chipset_init_as_firmware(void)
{
    PCIDevice *pm = board_pm_function;
    PCIBus *bus = board_pci_bus;
    PCIDevice *host = bus ? pci_find_device(bus, 0, 0) : NULL;
    int i;

    if (host) {
        uint32_t pam = PCI_DEVICE_GET_CLASS(host)->device_id == 0x1237
                           ? PAM_I440FX : PAM_MCH;

        /* One memory transaction: one new flat view, not seven */
        memory_region_transaction_begin();
        for (i = 0; i < 7; i++) {
            pci_host_config_write(bus, 0, 0, pam + i, PAM_ALL_RAM, 1);
        }
        memory_region_transaction_commit();
    }
    if (!pm) {
        return;
    }
    if (pm->devfn == PCI_DEVFN(ICH9_LPC_DEV, ICH9_LPC_FUNC)) {
        pci_host_config_write(bus, 0, pm->devfn, ICH9_LPC_PMBASE,
                              ACPI_PM_BASE | 1, 4);
        pci_host_config_write(bus, 0, pm->devfn, ICH9_LPC_ACPI_CTRL,
                              ICH9_LPC_ACPI_CTRL_ACPI_EN, 1);
        return;
    }
    pci_host_config_write(bus, 0, pm->devfn, PIIX4_PM_PMBASE,
                          ACPI_PM_BASE | 1, 4);
    pci_host_config_write(bus, 0, pm->devfn, PIIX4_PM_PMREGMISC, 0x01, 1);
}
