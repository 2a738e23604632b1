/*
 * PCI interrupts: INTx from a device's pin through the bridges' swizzle to
 * the lines of the bus that drives them (the chipset's PIRQs), INTx
 * disable, and the INTx side of a bus reset (include/hw/pci/pci.h; the
 * routing beyond is the chipset's: hw/isa/piix3.c, hw/isa/ich9-irq.c).
 */
#include "hw/pci/pci.h"
#include "pci-internal.h"

int pci_intx(PCIDevice *dev)
{
    int pin = dev->config[PCI_INTERRUPT_PIN];

    return pin >= 1 && pin <= 4 ? pin - 1 : -1;
}

/*
 * The line a pin reaches: each bridge's secondary bus swizzles it
 * (QEMU's pci_swizzle_map_irq_fn) until a bus that drives lines; the
 * line's count changes by change and the bus drives it (even for a
 * change of 0, as 7.2 does when INTx disable toggles)
 */
static void pci_bus_change_irq_pin(PCIDevice *dev, int line, int change)
{
    PCIBus *bus = pci_device_bus(dev);

    for (;;) {
        if (!bus->map_irq) {
            return;
        }
        line = bus->map_irq(dev, line);
        if (bus->set_irq || pci_bus_is_root(bus)) {
            break;
        }
        dev = bus->parent_dev;
        bus = pci_device_bus(dev);
    }
    if (line < 0 || line >= bus->nirq) {
        return;
    }
    bus->irq_count[line] += change;
    if (bus->set_irq) {
        bus->set_irq(bus->irq_opaque, line, bus->irq_count[line] != 0);
    }
}

void pci_bus_change_irq(PCIDevice *dev, int change)
{
    if (change && pci_intx(dev) >= 0) {
        pci_bus_change_irq_pin(dev, pci_intx(dev), change);
    }
}

/* What the bus sees: the device's level unless INTx is disabled */
int pci_irq_visible(PCIDevice *dev)
{
    return dev->irq_level &&
           !(pci_get_word(dev->config + PCI_COMMAND) &
             PCI_COMMAND_INTX_DISABLE);
}

void pci_set_irq(PCIDevice *dev, int level)
{
    int before;

    if (pci_intx(dev) < 0) {
        return;
    }
    pci_lock();
    before = pci_irq_visible(dev);
    dev->irq_level = !!level;
    if (level) {
        dev->config[PCI_STATUS] |= PCI_STATUS_INTERRUPT;
    } else {
        dev->config[PCI_STATUS] &= ~PCI_STATUS_INTERRUPT;
    }
    pci_bus_change_irq(dev, pci_irq_visible(dev) - before);
    pci_unlock();
}

/*
 * INTx disable toggled: each of the four pins' lines moves by the pin's
 * state — and is driven even when that is 0 (7.2's pci_update_irq_
 * disabled), which re-evaluates the line with the routing as it is now
 */
void pci_update_intx_disabled(PCIDevice *dev, bool was)
{
    bool disabled = pci_get_word(dev->config + PCI_COMMAND) &
                    PCI_COMMAND_INTX_DISABLE;
    int pin;

    if (disabled == was) {
        return;
    }
    for (pin = 0; pin < 4; pin++) {
        int state = pin == pci_intx(dev) && dev->irq_level;

        pci_bus_change_irq_pin(dev, pin, disabled ? -state : state);
    }
}

/*
 * A device's INTx deasserts with its reset — but in a reset of its whole
 * bus only after every device's own reset, function by function in devfn
 * order (so a routing register another function resets first decides
 * where the deassertion goes), as 7.2's PCI bus reset does
 */
void pci_reset_intx(PCIDevice *dev)
{
    pci_bus_change_irq(dev, -pci_irq_visible(dev));
    dev->irq_level = 0;
}

void pci_bus_reset_enter(BusState *qbus)
{
    PCI_BUS(qbus)->in_reset = true;
}

void pci_bus_reset(BusState *qbus)
{
    PCIBus *bus = PCI_BUS(qbus);
    int devfn;

    pci_lock();
    bus->in_reset = false;
    for (devfn = 0; devfn < 256; devfn++) {
        if (bus->devices[devfn]) {
            pci_reset_intx(bus->devices[devfn]);
        }
    }
    pci_unlock();
}

int pci_swizzle_map_irq(PCIDevice *dev, int pin)
{
    return (PCI_SLOT(dev->devfn) + pin) % 4;
}

void pci_bus_irqs(PCIBus *bus, PCISetIRQFunc *set_irq, PCIMapIRQFunc *map_irq,
                  void *opaque, int nirq)
{
    bus->set_irq = set_irq;
    bus->map_irq = map_irq;
    bus->irq_opaque = opaque;
    bus->nirq = nirq;
    g_free(bus->irq_count);
    bus->irq_count = g_new0(int, nirq);
}

bool pci_bus_get_irq_level(PCIBus *bus, int line)
{
    return line >= 0 && line < bus->nirq && bus->irq_count[line];
}
