/*
 * Standard Hot-Plug Controller (include/hw/pci/shpc.h): the register file
 * (SHPC 1.0 layout), its reset values and masks, and the commands, with
 * QEMU 7.2's behaviour.
 */
#include "hw/pci/msi.h"
#include "hw/pci/shpc.h"

#define SHPC_BASE_OFFSET 0x00
#define SHPC_SLOTS_33 0x04
#define SHPC_SLOTS_66 0x08
#define SHPC_NSLOTS 0x0c
#define SHPC_FIRST_DEV 0x0d
#define SHPC_PHYS_SLOT 0x0e
#define  SHPC_PHYS_NUM_UP 0x2000
#define  SHPC_PHYS_MRL 0x4000
#define  SHPC_PHYS_BUTTON 0x8000
#define SHPC_SEC_BUS 0x10
#define  SHPC_SEC_BUS_33 0x0
#define  SHPC_SEC_BUS_MASK 0x7
#define SHPC_PROG_IFC 0x13
#define SHPC_CMD_CODE 0x14
#define SHPC_CMD_TRGT 0x15
#define  SHPC_CMD_TRGT_MAX 0x1f
#define SHPC_CMD_STATUS 0x16
#define  SHPC_CMD_STATUS_ALL 0x000f  /* busy, MRL open, invalid cmd/mode */
#define  SHPC_CMD_STATUS_INVALID_CMD 0x4
#define  SHPC_CMD_STATUS_INVALID_MODE 0x8
#define SHPC_INT_LOCATOR 0x18
#define  SHPC_INT_COMMAND 0x1
#define SHPC_SERR_INT 0x20
#define  SHPC_INT_DIS 0x1
#define  SHPC_SERR_INT_DISABLES 0x0000000f
#define  SHPC_CMD_INT_DIS 0x4
#define  SHPC_SERR_INT_DIS 0x1
#define  SHPC_CMD_DETECTED 0x00010000
#define  SHPC_ARB_DETECTED 0x00020000
#define SHPC_SLOT_REG(s) (0x24 + (s) * 4)
#define SHPC_SLOT_EVENT_LATCH(s) (SHPC_SLOT_REG(s) + 2)
#define SHPC_SLOT_EVENT_DISABLE(s) (SHPC_SLOT_REG(s) + 3)
#define SHPC_MAX_SLOTS 31

/* Slot status fields */
#define SHPC_SLOT_STATE_MASK 0x0003
#define  SHPC_STATE_NO 0x0
#define  SHPC_STATE_PWRONLY 0x1
#define  SHPC_STATE_ENABLED 0x2
#define  SHPC_STATE_DISABLED 0x3
#define SHPC_SLOT_PWR_LED_MASK 0x000c
#define SHPC_SLOT_ATTN_LED_MASK 0x0030
#define  SHPC_LED_NO 0x0
#define  SHPC_LED_ON 0x1
#define  SHPC_LED_OFF 0x3
#define SHPC_SLOT_STATUS_MRL_OPEN 0x0100
#define SHPC_SLOT_STATUS_66 0x0200
#define SHPC_SLOT_STATUS_PRSNT_MASK 0x0c00
#define  SHPC_PRSNT_7_5W 0x0
#define  SHPC_PRSNT_EMPTY 0x3
/* Slot events: presence, isolated fault, button, MRL, connected fault */
#define SHPC_SLOT_EVENTS 0x1f
#define  SHPC_SLOT_EVENT_PRESENCE 0x01
#define  SHPC_SLOT_EVENT_MRL 0x08
#define SHPC_SLOT_EVENT_SERR_DIS 0x60

/* The capability: a dword select and a data window */
#define SHPC_CAP_LENGTH 0x08
#define SHPC_CAP_DWORD_SELECT 0x2
#define SHPC_CAP_DWORD_DATA 0x4

static unsigned shpc_size(SHPCDevice *shpc)
{
    return SHPC_SLOT_REG(shpc->nslots);
}

uint64_t shpc_bar_size(void)
{
    uint64_t size = 1;

    while (size < SHPC_SLOT_REG(SHPC_MAX_SLOTS)) {
        size <<= 1;
    }
    return size;
}

static int mask_shift(uint16_t mask)
{
    return __builtin_ctz(mask);
}

static unsigned shpc_get_status(SHPCDevice *shpc, int slot, uint16_t mask)
{
    return (pci_get_word(shpc->config + SHPC_SLOT_REG(slot)) & mask) >>
           mask_shift(mask);
}

static void shpc_set_status(SHPCDevice *shpc, int slot, unsigned value,
                            uint16_t mask)
{
    uint8_t *p = shpc->config + SHPC_SLOT_REG(slot);

    pci_set_word(p, (pci_get_word(p) & ~mask) | (value << mask_shift(mask)));
}

/*
 * The interrupt locator says which slots (and the command) want service;
 * the controller interrupts while it names one and SERR_INT's global
 * disable (bit 0) is clear.  As 7.2: with MSI enabled a change of that
 * level — either way — sends the message; otherwise (MSI off, or the
 * level unchanged) INTx takes the level
 */
static void shpc_interrupt_update(SHPCDevice *shpc)
{
    bool level;
    uint32_t locator = 0, serr_int;
    int slot;

    for (slot = 0; slot < shpc->nslots; slot++) {
        if (shpc->config[SHPC_SLOT_EVENT_LATCH(slot)] &
            ~shpc->config[SHPC_SLOT_EVENT_DISABLE(slot)]) {
            locator |= 1u << (slot + 1);
        }
    }
    serr_int = pci_get_long(shpc->config + SHPC_SERR_INT);
    if ((serr_int & SHPC_CMD_DETECTED) && !(serr_int & SHPC_CMD_INT_DIS)) {
        locator |= SHPC_INT_COMMAND;
    }
    pci_set_long(shpc->config + SHPC_INT_LOCATOR, locator);
    level = !(serr_int & SHPC_SERR_INT_DIS) && locator;
    if (msi_enabled(shpc->dev) && shpc->msi_requested != level) {
        msi_notify(shpc->dev, 0);
    } else {
        pci_set_irq(shpc->dev, level);
    }
    shpc->msi_requested = level;
}

static void shpc_invalid_command(SHPCDevice *shpc)
{
    pci_set_word(shpc->config + SHPC_CMD_STATUS,
                 pci_get_word(shpc->config + SHPC_CMD_STATUS) |
                 SHPC_CMD_STATUS_INVALID_CMD);
}

static void shpc_free_devices_in_slot(SHPCDevice *shpc, int slot)
{
    int fn;

    for (fn = 0; fn < 8; fn++) {
        PCIDevice *d = shpc->sec_bus->devices[PCI_DEVFN(slot + 1, fn)];

        if (d) {
            qdev_unparent(DEVICE(d));
        }
    }
}

static void shpc_slot_command(SHPCDevice *shpc, uint8_t target,
                              uint8_t state, uint8_t power, uint8_t attn)
{
    int slot = target - 1;
    unsigned current;

    if (target < 1 || slot >= shpc->nslots) {
        shpc_invalid_command(shpc);
        return;
    }
    current = shpc_get_status(shpc, slot, SHPC_SLOT_STATE_MASK);
    if (current == SHPC_STATE_ENABLED && state == SHPC_STATE_PWRONLY) {
        shpc_invalid_command(shpc);
        return;
    }
    if (power != SHPC_LED_NO) {
        shpc_set_status(shpc, slot, power, SHPC_SLOT_PWR_LED_MASK);
    }
    if (attn != SHPC_LED_NO) {
        shpc_set_status(shpc, slot, attn, SHPC_SLOT_ATTN_LED_MASK);
    }
    if (current == SHPC_STATE_DISABLED &&
        (state == SHPC_STATE_PWRONLY || state == SHPC_STATE_ENABLED)) {
        shpc_set_status(shpc, slot, state, SHPC_SLOT_STATE_MASK);
    } else if ((current == SHPC_STATE_ENABLED ||
                current == SHPC_STATE_PWRONLY) &&
               state == SHPC_STATE_DISABLED) {
        shpc_set_status(shpc, slot, state, SHPC_SLOT_STATE_MASK);
        /* the power LED off says the card may go */
        if (shpc_get_status(shpc, slot, SHPC_SLOT_PWR_LED_MASK) ==
            SHPC_LED_OFF) {
            shpc_free_devices_in_slot(shpc, slot);
            shpc_set_status(shpc, slot, 1, SHPC_SLOT_STATUS_MRL_OPEN);
            shpc_set_status(shpc, slot, SHPC_PRSNT_EMPTY,
                            SHPC_SLOT_STATUS_PRSNT_MASK);
            shpc->config[SHPC_SLOT_EVENT_LATCH(slot)] |=
                SHPC_SLOT_EVENT_MRL | SHPC_SLOT_EVENT_PRESENCE;
        }
    }
}

/* Every slot to state, as far as its MRL is closed (commands 0x48, 0x49) */
static void shpc_all_slots(SHPCDevice *shpc, uint8_t state)
{
    int i;

    for (i = 0; i < shpc->nslots; i++) {
        if (shpc_get_status(shpc, i, SHPC_SLOT_STATE_MASK) ==
            SHPC_STATE_ENABLED) {
            shpc_invalid_command(shpc);
            return;
        }
    }
    for (i = 0; i < shpc->nslots; i++) {
        if (!shpc_get_status(shpc, i, SHPC_SLOT_STATUS_MRL_OPEN)) {
            shpc_slot_command(shpc, i + 1, state, SHPC_LED_ON, SHPC_LED_NO);
        } else {
            shpc_slot_command(shpc, i + 1, SHPC_STATE_NO, SHPC_LED_OFF,
                              SHPC_LED_NO);
        }
    }
}

static void shpc_command(SHPCDevice *shpc)
{
    uint8_t code = shpc->config[SHPC_CMD_CODE];

    pci_set_word(shpc->config + SHPC_CMD_STATUS,
                 pci_get_word(shpc->config + SHPC_CMD_STATUS) &
                 ~SHPC_CMD_STATUS_ALL);
    if (code <= 0x3f) {
        shpc_slot_command(shpc, shpc->config[SHPC_CMD_TRGT] &
                          SHPC_CMD_TRGT_MAX, code & 0x3, (code >> 2) & 0x3,
                          (code >> 4) & 0x3);
    } else if (code <= 0x47) {
        /* bus speed: only 33 MHz conventional */
        if ((code & SHPC_SEC_BUS_MASK) == SHPC_SEC_BUS_33) {
            shpc->config[SHPC_SEC_BUS] &= ~SHPC_SEC_BUS_MASK;
        } else {
            pci_set_word(shpc->config + SHPC_CMD_STATUS,
                         pci_get_word(shpc->config + SHPC_CMD_STATUS) |
                         SHPC_CMD_STATUS_INVALID_MODE);
        }
    } else if (code == 0x48) {
        shpc_all_slots(shpc, SHPC_STATE_PWRONLY);
    } else if (code == 0x49) {
        shpc_all_slots(shpc, SHPC_STATE_ENABLED);
    } else {
        shpc_invalid_command(shpc);
    }
    pci_set_long(shpc->config + SHPC_SERR_INT,
                 pci_get_long(shpc->config + SHPC_SERR_INT) |
                 SHPC_CMD_DETECTED);
}

static void shpc_write(SHPCDevice *shpc, unsigned addr, uint64_t val, int len)
{
    int i;

    if (addr >= shpc_size(shpc)) {
        return;
    }
    len = MIN(len, (int)(shpc_size(shpc) - addr));
    for (i = 0; i < len; i++, val >>= 8) {
        uint8_t *p = shpc->config + addr + i;

        *p = (*p & ~shpc->wmask[addr + i]) | (val & shpc->wmask[addr + i]);
        *p &= ~(val & shpc->w1cmask[addr + i]);
    }
    if (addr < SHPC_CMD_CODE + 2 && addr + len > SHPC_CMD_CODE) {
        shpc_command(shpc);
    }
    shpc_interrupt_update(shpc);
}

static uint64_t shpc_read(SHPCDevice *shpc, unsigned addr, int len)
{
    uint64_t v = 0;
    int i;

    for (i = 0; i < len && addr + i < shpc_size(shpc); i++) {
        v |= (uint64_t)shpc->config[addr + i] << (8 * i);
    }
    return v;
}

static uint64_t shpc_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    SHPCDevice *shpc = opaque;
    uint64_t v;

    pci_lock();
    v = shpc_read(shpc, addr, size);
    pci_unlock();
    return v;
}

static void shpc_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    SHPCDevice *shpc = opaque;

    pci_lock();
    shpc_write(shpc, addr, val, size);
    pci_unlock();
}

/* 7.2 takes every size up to a dword (SHPC 1.0 allows them) */
static const MemoryRegionOps shpc_mmio_ops = {
    .read = shpc_mmio_read,
    .write = shpc_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
};

static void shpc_cap_update_dword(SHPCDevice *shpc)
{
    uint8_t sel = shpc->dev->config[shpc->cap + SHPC_CAP_DWORD_SELECT];

    pci_set_long(shpc->dev->config + shpc->cap + SHPC_CAP_DWORD_DATA,
                 shpc_read(shpc, sel * 4, 4));
}

void shpc_reset(SHPCDevice *shpc)
{
    int i;

    memset(shpc->config, 0, shpc_size(shpc));
    shpc->config[SHPC_NSLOTS] = shpc->nslots;
    pci_set_long(shpc->config + SHPC_SLOTS_33, shpc->nslots);
    shpc->config[SHPC_FIRST_DEV] = 1;
    pci_set_word(shpc->config + SHPC_PHYS_SLOT, 1 | SHPC_PHYS_NUM_UP |
                 SHPC_PHYS_MRL | SHPC_PHYS_BUTTON);
    pci_set_long(shpc->config + SHPC_SERR_INT, SHPC_SERR_INT_DISABLES);
    shpc->config[SHPC_PROG_IFC] = 1;   /* SHPC 1.0 */
    for (i = 0; i < shpc->nslots; i++) {
        bool present = shpc->sec_bus->devices[PCI_DEVFN(i + 1, 0)];

        shpc->config[SHPC_SLOT_EVENT_DISABLE(i)] =
            SHPC_SLOT_EVENTS | SHPC_SLOT_EVENT_SERR_DIS;
        shpc_set_status(shpc, i, present ? SHPC_STATE_ENABLED
                                         : SHPC_STATE_DISABLED,
                        SHPC_SLOT_STATE_MASK);
        shpc_set_status(shpc, i, !present, SHPC_SLOT_STATUS_MRL_OPEN);
        shpc_set_status(shpc, i, present ? SHPC_PRSNT_7_5W : SHPC_PRSNT_EMPTY,
                        SHPC_SLOT_STATUS_PRSNT_MASK);
        shpc_set_status(shpc, i, present ? SHPC_LED_ON : SHPC_LED_OFF,
                        SHPC_SLOT_PWR_LED_MASK);
    }
    shpc->msi_requested = false;
    shpc_interrupt_update(shpc);
}

int shpc_init(SHPCDevice *shpc, PCIDevice *dev, PCIBus *sec_bus,
              MemoryRegion *bar, Error **errp)
{
    int pos = pci_add_capability(dev, PCI_CAP_ID_SHPC, 0, SHPC_CAP_LENGTH,
                                 errp);
    int i;

    if (pos < 0) {
        return -1;
    }
    shpc->dev = dev;
    shpc->cap = pos;
    shpc->sec_bus = sec_bus;
    shpc->nslots = SHPC_MAX_SLOTS;
    dev->wmask[pos + SHPC_CAP_DWORD_SELECT] = 0xff;
    pci_set_long(dev->wmask + pos + SHPC_CAP_DWORD_DATA, 0xffffffff);
    shpc->config = g_malloc0(shpc_size(shpc));
    shpc->wmask = g_malloc0(shpc_size(shpc));
    shpc->w1cmask = g_malloc0(shpc_size(shpc));
    shpc_reset(shpc);
    shpc->wmask[SHPC_CMD_CODE] = 0xff;
    shpc->wmask[SHPC_CMD_TRGT] = SHPC_CMD_TRGT_MAX;
    pci_set_long(shpc->wmask + SHPC_SERR_INT, SHPC_SERR_INT_DISABLES);
    pci_set_long(shpc->w1cmask + SHPC_SERR_INT,
                 SHPC_CMD_DETECTED | SHPC_ARB_DETECTED);
    for (i = 0; i < shpc->nslots; i++) {
        shpc->wmask[SHPC_SLOT_EVENT_DISABLE(i)] =
            SHPC_SLOT_EVENTS | SHPC_SLOT_EVENT_SERR_DIS;
        shpc->w1cmask[SHPC_SLOT_EVENT_LATCH(i)] = SHPC_SLOT_EVENTS;
    }
    memory_region_init_io(&shpc->mmio, OBJECT(dev), &shpc_mmio_ops, shpc,
                          "shpc-mmio", shpc_size(shpc));
    shpc_cap_update_dword(shpc);
    memory_region_add_subregion(bar, 0, &shpc->mmio);
    return pos;
}

void shpc_cleanup(SHPCDevice *shpc, MemoryRegion *bar)
{
    if (!shpc->config) {
        return;
    }
    memory_region_del_subregion(bar, &shpc->mmio);
    object_unparent(OBJECT(&shpc->mmio));
    g_free(shpc->config);
    g_free(shpc->wmask);
    g_free(shpc->w1cmask);
    shpc->config = shpc->wmask = shpc->w1cmask = NULL;
}

void shpc_cap_write_config(SHPCDevice *shpc, uint32_t addr, uint32_t val,
                           int len)
{
    uint32_t cap = shpc->cap;

    if (!shpc->config || addr >= cap + SHPC_CAP_LENGTH || addr + len <= cap) {
        return;
    }
    if (addr < cap + SHPC_CAP_DWORD_DATA + 4 &&
        addr + len > cap + SHPC_CAP_DWORD_DATA) {
        /*
         * QEMU 7.2 writes the selected register with the register file's
         * dword at the capability's data offset, not with what the guest
         * wrote to the window; kept, since a guest sees it
         */
        shpc_write(shpc, shpc->dev->config[cap + SHPC_CAP_DWORD_SELECT] * 4,
                   shpc_read(shpc, cap + SHPC_CAP_DWORD_DATA, 4), 4);
    }
    shpc_cap_update_dword(shpc);
}
