/*
 * PCI Express capabilities (include/hw/pci/pcie.h): the PCIe capability
 * v2 and its slot, root and link registers, AER and ACS, with QEMU 7.2's
 * values and write masks (measured over MMCONFIG beside 7.2, the fields
 * named after the PCIe base specification).
 */
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"

#define PCI_EXP_FLAGS_VER2 0x0002
#define PCI_EXP_DEVCAP_RBER 0x00008000
#define PCI_EXP_DEVCTL_ERR_REPORTING 0x000f     /* CERE NFERE FERE URRE */
#define PCI_EXP_DEVSTA_ERRORS 0x000f            /* CED NFED FED URD */
#define PCI_EXP_LNKCAP_ASPMS_0S 0x00000400
#define PCI_EXP_LNKCAP_DLLLARC 0x00100000
#define PCI_EXP_LNKCAP_LBNC 0x00200000
#define PCI_EXP_SLTCAP_ABP 0x00000001
#define PCI_EXP_SLTCAP_PCP 0x00000002
#define PCI_EXP_SLTCAP_AIP 0x00000008
#define PCI_EXP_SLTCAP_PIP 0x00000010
#define PCI_EXP_SLTCAP_HPS 0x00000020
#define PCI_EXP_SLTCAP_HPC 0x00000040
#define PCI_EXP_SLTCAP_EIP 0x00020000
#define PCI_EXP_SLTCAP_PSN_SHIFT 19
#define PCI_EXP_SLTSTA_EVENTS 0x0019            /* ABP PDC CC */
#define PCI_EXP_SLTSTA_CC 0x0010
/* ABP PFD MRLSC PDC CC */
#define PCIE_SLOT_EVENTS 0x001f
#define PCI_EXP_RTCTL_SYS_ERR 0x0007            /* SECEE SENFEE SEFEE */
#define PCI_EXP_DEVCAP2_ARI 0x00000020
#define PCI_EXP_DEVCAP2_EFF_EETLPP 0x00300000
#define PCI_EXP_DEVCTL2_ARI 0x0020
#define PCI_EXP_DEVCTL2_EETLPPB 0x8000

#define PCI_ERR_UNCOR_STATUS 0x04
#define PCI_ERR_UNCOR_SEVER 0x0c
#define PCI_ERR_COR_STATUS 0x10
#define PCI_ERR_COR_MASK 0x14
#define PCI_ERR_CAP 0x18
#define PCI_ERR_ROOT_COMMAND 0x2c
#define PCI_ERR_ROOT_STATUS 0x30
#define PCI_ERR_UNC_SUPPORTED 0x03fff030
#define PCI_ERR_UNC_SEVERITY_DEFAULT 0x00462030
#define PCI_ERR_COR_SUPPORTED 0x0000f1c1
#define PCI_ERR_COR_MASK_DEFAULT 0x0000e000
#define PCI_ERR_CAP_ECRC_CAPABLE 0x000000a0     /* GENC CHKC */
#define PCI_ERR_CAP_ECRC_ENABLE 0x00000140      /* GENE CHKE */
#define PCI_ERR_CAP_MHRC 0x00000200
#define PCI_ERR_CAP_MHRE 0x00000400
#define PCI_ERR_ROOT_CMD_EN_MASK 0x00000007
#define PCI_ERR_ROOT_STATUS_REPORT_MASK 0x0000007f

#define PCI_ACS_CAP 0x04
#define PCI_ACS_CTRL 0x06
#define PCI_ACS_DOWNSTREAM_BITS 0x005f          /* SV TB RR CR UF DT */

static void set_word_bits(uint8_t *p, uint16_t bits)
{
    pci_set_word(p, pci_get_word(p) | bits);
}

static void clear_word_bits(uint8_t *p, uint16_t bits)
{
    pci_set_word(p, pci_get_word(p) & ~bits);
}

static void set_long_bits(uint8_t *p, uint32_t bits)
{
    pci_set_long(p, pci_get_long(p) | bits);
}

/* The PCIe capability --------------------------------------------------------- */

int pcie_cap_init(PCIDevice *dev, uint8_t offset, uint8_t type, uint8_t port,
                  Error **errp)
{
    PCIESlot *s = (PCIESlot *)object_dynamic_cast(OBJECT(dev),
                                                   TYPE_PCIE_SLOT);
    int pos = pci_add_capability(dev, PCI_CAP_ID_EXP, offset,
                                 PCI_EXP_VER2_SIZEOF, errp);
    uint8_t *cap;
    uint32_t width = 1, speed = 1;

    if (pos < 0) {
        return -1;
    }
    dev->exp_cap = pos;
    cap = dev->config + pos;
    pci_set_word(cap + PCI_EXP_FLAGS, type << 4 | PCI_EXP_FLAGS_VER2);
    pci_set_long(cap + PCI_EXP_DEVCAP, PCI_EXP_DEVCAP_RBER);
    if (s) {
        static const uint8_t widths[] = { 1, 2, 4, 8, 12, 16, 32 };

        width = widths[s->width];
        speed = s->speed + 1;
    }
    pci_set_long(cap + PCI_EXP_LNKCAP, (uint32_t)port << 24 |
                 PCI_EXP_LNKCAP_ASPMS_0S | width << 4 | speed);
    pci_set_word(cap + PCI_EXP_LNKSTA, width << 4 | speed);
    if (s && (width > 1 || speed > 1)) {
        set_long_bits(cap + PCI_EXP_LNKCAP, PCI_EXP_LNKCAP_LBNC);
    }
    if (s && speed > 1) {
        /* faster than 2.5 GT/s: DLLLA reporting, target speed the top */
        set_long_bits(cap + PCI_EXP_LNKCAP, PCI_EXP_LNKCAP_DLLLARC);
        pci_set_word(cap + PCI_EXP_LNKCTL2, speed);
    }
    if (s && speed > 2) {
        /* supported speeds vector: every one up to the top */
        pci_set_long(cap + PCI_EXP_LNKCAP2, speed == 3 ? 0x0e : 0x1e);
    }
    pci_set_long(cap + PCI_EXP_DEVCAP2, PCI_EXP_DEVCAP2_EFF_EETLPP);
    pci_set_word(dev->wmask + pos + PCI_EXP_DEVCTL2, PCI_EXP_DEVCTL2_EETLPPB);
    if (dev->x_pcie_extcap_init && dev->config_size > PCI_CONFIG_SPACE_SIZE) {
        /* a read-only null extended capability header until one is added */
        pci_set_long(dev->wmask + PCI_CONFIG_SPACE_SIZE, 0);
    }
    return pos;
}

int pcie_endpoint_cap_init(PCIDevice *dev, uint8_t offset, Error **errp)
{
    PCIBus *bus = (PCIBus *)DEVICE(dev)->parent_bus;

    return pcie_cap_init(dev, offset, pci_bus_is_root(bus)
                                      ? PCI_EXP_TYPE_RC_END
                                      : PCI_EXP_TYPE_ENDPOINT, 0, errp);
}

void pcie_cap_deverr_init(PCIDevice *dev)
{
    int pos = dev->exp_cap;

    set_long_bits(dev->config + pos + PCI_EXP_DEVCAP, PCI_EXP_DEVCAP_RBER);
    set_word_bits(dev->wmask + pos + PCI_EXP_DEVCTL,
                  PCI_EXP_DEVCTL_ERR_REPORTING);
    set_word_bits(dev->w1cmask + pos + PCI_EXP_DEVSTA, PCI_EXP_DEVSTA_ERRORS);
}

void pcie_cap_arifwd_init(PCIDevice *dev)
{
    int pos = dev->exp_cap;

    set_long_bits(dev->config + pos + PCI_EXP_DEVCAP2, PCI_EXP_DEVCAP2_ARI);
    set_word_bits(dev->wmask + pos + PCI_EXP_DEVCTL2, PCI_EXP_DEVCTL2_ARI);
}

void pcie_cap_slot_init(PCIDevice *dev, PCIESlot *s)
{
    int pos = dev->exp_cap;
    uint8_t *cap = dev->config + pos;
    uint32_t sltcap = (uint32_t)s->slot << PCI_EXP_SLTCAP_PSN_SHIFT |
                      PCI_EXP_SLTCAP_EIP | PCI_EXP_SLTCAP_PIP |
                      PCI_EXP_SLTCAP_AIP | PCI_EXP_SLTCAP_ABP;

    set_word_bits(cap + PCI_EXP_FLAGS, PCI_EXP_FLAGS_SLOT);
    if (s->hotplug && (s->native_hotplug || DEVICE(dev)->hotplugged)) {
        sltcap |= PCI_EXP_SLTCAP_HPS | PCI_EXP_SLTCAP_HPC;
    }
    if (s->power_controller_present) {
        sltcap |= PCI_EXP_SLTCAP_PCP;
        set_word_bits(dev->wmask + pos + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_PCC);
    }
    pci_set_long(cap + PCI_EXP_SLTCAP, sltcap);
    pci_set_word(cap + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_PIC_OFF |
                 PCI_EXP_SLTCTL_AIC_OFF);
    /* EIC is writable so a 1 can be seen; it always reads 0 */
    set_word_bits(dev->wmask + pos + PCI_EXP_SLTCTL,
                  PCI_EXP_SLTCTL_PIC | PCI_EXP_SLTCTL_AIC |
                  PCI_EXP_SLTCTL_HPIE | PCI_EXP_SLTCTL_CCIE |
                  PCI_EXP_SLTCTL_PDCE | PCI_EXP_SLTCTL_ABPE |
                  PCI_EXP_SLTCTL_EIC);
    set_word_bits(dev->w1cmask + pos + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_EVENTS);
}

void pcie_cap_root_init(PCIDevice *dev)
{
    pci_set_word(dev->wmask + dev->exp_cap + PCI_EXP_RTCTL,
                 PCI_EXP_RTCTL_SYS_ERR);
}

/* Whether a hot-plug event is to be signalled: HPIE and an enabled one */
static void pcie_hotplug_event_update(PCIDevice *dev)
{
    uint8_t *cap = dev->config + dev->exp_cap;
    uint16_t ctl = pci_get_word(cap + PCI_EXP_SLTCTL);
    uint16_t sta = pci_get_word(cap + PCI_EXP_SLTSTA);

    dev->hpev_notified = (ctl & PCI_EXP_SLTCTL_HPIE) &&
                         (sta & ctl & PCI_EXP_SLTSTA_EVENTS);
}

/*
 * On a change: MSI-X vector 0 (left pending while masked, as 7.2; not
 * delivered, there is no MSI here yet), else INTx
 */
static void pcie_hotplug_event_notify(PCIDevice *dev)
{
    bool prev = dev->hpev_notified;

    pcie_hotplug_event_update(dev);
    if (prev == dev->hpev_notified) {
        return;
    }
    if (msix_enabled(dev)) {
        msix_notify(dev, 0);
    } else if (msi_enabled(dev)) {
        msi_notify(dev, 0);
    } else if (pci_intx(dev) >= 0) {
        pci_set_irq(dev, dev->hpev_notified);
    }
}

static void pcie_hotplug_event_clear(PCIDevice *dev)
{
    pcie_hotplug_event_update(dev);
    if (!msix_enabled(dev) && !msi_enabled(dev) && pci_intx(dev) >= 0 &&
        !dev->hpev_notified) {
        pci_set_irq(dev, 0);
    }
}

/* The slot's power controller powers what is behind it (PCC clear: on) */
static void pcie_cap_update_power(PCIDevice *dev)
{
    uint8_t *cap = dev->config + dev->exp_cap;
    PCIBus *sec = PCI_BRIDGE(dev)->sec_bus;
    bool power = true;
    int devfn;

    if (pci_get_long(cap + PCI_EXP_SLTCAP) & PCI_EXP_SLTCAP_PCP) {
        power = !(pci_get_word(cap + PCI_EXP_SLTCTL) & PCI_EXP_SLTCTL_PCC);
    }
    for (devfn = 0; devfn < 256; devfn++) {
        if (sec->devices[devfn]) {
            pci_set_power(sec->devices[devfn], power);
        }
    }
}

void pcie_cap_slot_write_config(PCIDevice *dev, uint16_t old_sta,
                                uint32_t addr, uint32_t val, int len)
{
    uint8_t *cap = dev->config + dev->exp_cap;
    uint32_t ctl = dev->exp_cap + PCI_EXP_SLTCTL;
    uint32_t sta = dev->exp_cap + PCI_EXP_SLTSTA;

    if (addr < sta + 2 && addr + len > sta) {
        /*
         * 7.2's guard against guests clearing events they never saw: a
         * write of 1s to clear events that were not set leaves the
         * events as they were.  7.2 tests the value as written, not
         * shifted to the status register (a dword write at the slot
         * control register tests the control bits); kept, a guest sees it
         */
        if (val & ~old_sta & PCIE_SLOT_EVENTS) {
            pci_set_word(cap + PCI_EXP_SLTSTA,
                         (pci_get_word(cap + PCI_EXP_SLTSTA) &
                          ~PCIE_SLOT_EVENTS) | (old_sta & PCIE_SLOT_EVENTS));
        }
        pcie_hotplug_event_clear(dev);
    }
    if (addr >= ctl + 2 || addr + len <= ctl) {
        return;
    }
    if (pci_get_word(cap + PCI_EXP_SLTCTL) & PCI_EXP_SLTCTL_EIC) {
        /* the electromechanical interlock toggles */
        clear_word_bits(cap + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_EIC);
        pci_set_word(cap + PCI_EXP_SLTSTA,
                     pci_get_word(cap + PCI_EXP_SLTSTA) ^
                     PCI_EXP_SLTSTA_EIS);
    }
    pcie_cap_update_power(dev);
    pcie_hotplug_event_notify(dev);
    /* a slot control write is a command, completed at once */
    if (!(pci_get_word(cap + PCI_EXP_SLTSTA) & PCI_EXP_SLTSTA_CC)) {
        set_word_bits(cap + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_CC);
        pcie_hotplug_event_notify(dev);
    }
}

void pcie_cap_slot_enable_power(PCIDevice *dev)
{
    if (PCIE_SLOT(dev)->power_controller_present) {
        clear_word_bits(dev->config + dev->exp_cap + PCI_EXP_SLTCTL,
                        PCI_EXP_SLTCTL_PCC);
    }
}

void pcie_cap_slot_reset(PCIDevice *dev)
{
    PCIESlot *s = PCIE_SLOT(dev);
    uint8_t *cap = dev->config + dev->exp_cap;

    clear_word_bits(cap + PCI_EXP_SLTCTL,
                    PCI_EXP_SLTCTL_EIC | PCI_EXP_SLTCTL_PIC |
                    PCI_EXP_SLTCTL_AIC | PCI_EXP_SLTCTL_HPIE |
                    PCI_EXP_SLTCTL_CCIE | PCI_EXP_SLTCTL_PDCE |
                    PCI_EXP_SLTCTL_ABPE);
    set_word_bits(cap + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_AIC_OFF);
    if (s->power_controller_present) {
        /* device 0 is the slot's: powered and its indicator on if there */
        bool populated = PCI_BRIDGE(dev)->sec_bus->devices[0];

        if (populated) {
            clear_word_bits(cap + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_PCC);
        } else {
            set_word_bits(cap + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_PCC);
        }
        set_word_bits(cap + PCI_EXP_SLTCTL,
                      populated ? PCI_EXP_SLTCTL_PIC_ON
                                : PCI_EXP_SLTCTL_PIC_OFF);
    }
    clear_word_bits(cap + PCI_EXP_SLTSTA,
                    PCI_EXP_SLTSTA_EIS | PCI_EXP_SLTSTA_EVENTS);
    pcie_cap_update_power(dev);
    pcie_hotplug_event_update(dev);
}

void pcie_cap_slot_coldplug(PCIDevice *port, PCIDevice *child)
{
    uint8_t *cap = port->config + port->exp_cap;

    set_word_bits(cap + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_PDS);
    if (child->x_pcie_lnksta_dllla ||
        (pci_get_long(cap + PCI_EXP_LNKCAP) & PCI_EXP_LNKCAP_DLLLARC)) {
        set_word_bits(cap + PCI_EXP_LNKSTA, PCI_EXP_LNKSTA_DLLLA);
    }
}

void pcie_sync_bridge_lnk(PCIDevice *port)
{
    PCIDevice *target = PCI_BRIDGE(port)->sec_bus->devices[0];
    uint8_t *cap = port->config + port->exp_cap;
    uint16_t lnkcap = pci_get_word(cap + PCI_EXP_LNKCAP);
    uint16_t lnksta;

    if (!target || !target->exp_cap) {
        lnksta = lnkcap;
    } else {
        /* the device's width and speed, no more than the port's */
        lnksta = pci_get_word(target->config + target->exp_cap +
                              PCI_EXP_LNKSTA);
        if ((lnksta & PCI_EXP_LNKSTA_NLW) > (lnkcap & PCI_EXP_LNKSTA_NLW)) {
            lnksta = (lnksta & ~PCI_EXP_LNKSTA_NLW) |
                     (lnkcap & PCI_EXP_LNKSTA_NLW);
        } else if (!(lnksta & PCI_EXP_LNKSTA_NLW)) {
            lnksta |= 1 << 4;
        }
        if ((lnksta & PCI_EXP_LNKSTA_CLS) > (lnkcap & PCI_EXP_LNKSTA_CLS)) {
            lnksta = (lnksta & ~PCI_EXP_LNKSTA_CLS) |
                     (lnkcap & PCI_EXP_LNKSTA_CLS);
        } else if (!(lnksta & PCI_EXP_LNKSTA_CLS)) {
            lnksta |= 1;
        }
    }
    pci_set_word(cap + PCI_EXP_LNKSTA,
                 (pci_get_word(cap + PCI_EXP_LNKSTA) &
                  ~(PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW)) |
                 (lnksta & (PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW)));
}

/* What a reset clears in the capability (device, root, ARI controls) */
void pcie_cap_reset(PCIDevice *dev)
{
    uint8_t *cap = dev->config + dev->exp_cap;

    clear_word_bits(cap + PCI_EXP_DEVCTL, PCI_EXP_DEVCTL_ERR_REPORTING);
    pci_set_word(cap + PCI_EXP_RTCTL, 0);
    clear_word_bits(cap + PCI_EXP_DEVCTL2, PCI_EXP_DEVCTL2_ARI);
}

void pcie_port_init_reg(PCIDevice *dev)
{
    pci_set_word(dev->config + PCI_STATUS, 0);
    pci_set_word(dev->config + PCI_SEC_STATUS, 0);
    clear_word_bits(dev->wmask + PCI_BRIDGE_CONTROL,
                    PCI_BRIDGE_CTL_MASTER_ABORT | PCI_BRIDGE_CTL_FAST_BACK |
                    PCI_BRIDGE_CTL_DISCARD | PCI_BRIDGE_CTL_SEC_DISCARD |
                    PCI_BRIDGE_CTL_DISCARD_STATUS |
                    PCI_BRIDGE_CTL_DISCARD_SERR);
}

/* AER and ACS ------------------------------------------------------------------ */

void pcie_aer_init(PCIDevice *dev, uint16_t offset, unsigned log_max)
{
    uint8_t *c = dev->config + offset;

    pcie_add_capability(dev, PCI_EXT_CAP_ID_ERR, 2, offset, PCI_ERR_SIZEOF);
    dev->aer_cap = offset;
    pci_set_long(dev->w1cmask + offset + PCI_ERR_UNCOR_STATUS,
                 PCI_ERR_UNC_SUPPORTED);
    pci_set_long(c + PCI_ERR_UNCOR_SEVER, PCI_ERR_UNC_SEVERITY_DEFAULT);
    pci_set_long(dev->wmask + offset + PCI_ERR_UNCOR_SEVER,
                 PCI_ERR_UNC_SUPPORTED);
    pci_set_long(dev->w1cmask + offset + PCI_ERR_COR_STATUS,
                 PCI_ERR_COR_SUPPORTED);
    pci_set_long(c + PCI_ERR_COR_MASK, PCI_ERR_COR_MASK_DEFAULT);
    pci_set_long(dev->wmask + offset + PCI_ERR_COR_MASK,
                 PCI_ERR_COR_SUPPORTED);
    pci_set_long(c + PCI_ERR_CAP, PCI_ERR_CAP_ECRC_CAPABLE |
                 (log_max ? PCI_ERR_CAP_MHRC : 0));
    pci_set_long(dev->wmask + offset + PCI_ERR_CAP, PCI_ERR_CAP_ECRC_ENABLE |
                 (log_max ? PCI_ERR_CAP_MHRE : 0));
    if (dev->exp_cap &&
        ((pci_get_word(dev->config + dev->exp_cap + PCI_EXP_FLAGS) >> 4) &
         0xf) == PCI_EXP_TYPE_ROOT_PORT) {
        /* ports: SERR# forwarding, received system error */
        set_word_bits(dev->wmask + PCI_BRIDGE_CONTROL, PCI_BRIDGE_CTL_SERR);
        set_word_bits(dev->w1cmask + PCI_STATUS, 0x4000);
    }
}

void pcie_aer_root_init(PCIDevice *dev)
{
    pci_set_long(dev->wmask + dev->aer_cap + PCI_ERR_ROOT_COMMAND,
                 PCI_ERR_ROOT_CMD_EN_MASK);
    pci_set_long(dev->w1cmask + dev->aer_cap + PCI_ERR_ROOT_STATUS,
                 PCI_ERR_ROOT_STATUS_REPORT_MASK);
}

void pcie_aer_root_reset(PCIDevice *dev)
{
    if (!dev->aer_cap) {
        return;
    }
    pci_set_long(dev->config + dev->aer_cap + PCI_ERR_ROOT_COMMAND, 0);
}

static uint16_t acs_cap_offset(PCIDevice *dev)
{
    uint16_t off = PCI_CONFIG_SPACE_SIZE;

    if (dev->config_size <= PCI_CONFIG_SPACE_SIZE) {
        return 0;       /* no extended space on a conventional bus */
    }

    while (off && off + 4 <= dev->config_size) {
        uint32_t h = pci_get_long(dev->config + off);

        if ((h & 0xffff) == PCI_EXT_CAP_ID_ACS) {
            return off;
        }
        off = h >> 20;
    }
    return 0;
}

void pcie_acs_init(PCIDevice *dev, uint16_t offset)
{
    /* only downstream ports have ACS here: SV TB RR CR UF DT */
    pcie_add_capability(dev, PCI_EXT_CAP_ID_ACS, 1, offset, PCI_ACS_SIZEOF);
    pci_set_word(dev->config + offset + PCI_ACS_CAP, PCI_ACS_DOWNSTREAM_BITS);
    pci_set_word(dev->wmask + offset + PCI_ACS_CTRL, PCI_ACS_DOWNSTREAM_BITS);
}

void pcie_acs_reset(PCIDevice *dev)
{
    uint16_t off = acs_cap_offset(dev);

    if (off) {
        pci_set_word(dev->config + off + PCI_ACS_CTRL, 0);
    }
}

/* Chassis/slot pairs ---------------------------------------------------------- */

static GSList *pcie_slots;

bool pcie_chassis_add_slot(PCIESlot *s, Error **errp)
{
    GSList *l;

    for (l = pcie_slots; l; l = l->next) {
        PCIESlot *o = l->data;

        if (o->chassis == s->chassis && o->slot == s->slot) {
            /* 7.2's words, -EBUSY included */
            error_setg(errp, "Can't add chassis slot, error -16");
            return false;
        }
    }
    pcie_slots = g_slist_prepend(pcie_slots, s);
    return true;
}

void pcie_chassis_del_slot(PCIESlot *s)
{
    pcie_slots = g_slist_remove(pcie_slots, s);
}
