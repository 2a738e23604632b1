/*
 * fw_cfg_io: QEMU's firmware configuration device, as QEMU 7.2 builds it
 * on the PC (include/hw/nvram/fw_cfg.h; the interface is QEMU's
 * docs/specs/fw_cfg.rst, the behaviour measured on 7.2 over qtest).
 *
 * Ports (region "fwcfg", 2 bytes at 0x510): a 16-bit write at 0x510
 * selects an item and rewinds it; a byte read at 0x510 or 0x511 returns the
 * item's next byte (0 past its end, for an unknown key, or a key with no
 * data); byte writes are ignored (data writes went away in QEMU 2.4).
 * Other widths are not accepted.
 *
 * DMA (region "fwcfg.dma", 8 bytes at 0x514): reads give "QEMU CFG"; the
 * guest writes the big-endian guest-physical address of a FWCfgDmaAccess
 * {be32 control, be32 length, be64 address}, the high half at 0x514, the
 * low half at 0x518 (that write starts the transfer).  control: SELECT
 * (key in bits 31:16) first, then one of READ, WRITE, SKIP (in that order
 * of precedence; none: nothing is transferred).  The device writes back
 * control = 0, or ERROR (bit 0) when: the descriptor cannot be read, a
 * read's destination is not memory (unassigned), a write targets an
 * item that is read-only, absent or ends before length bytes.  A read
 * past the item's end fills zeros; skip just moves the offset.
 */
#include <string.h>

#include <glib.h>

#include "hw/boards.h"
#include "hw/nvram/fw_cfg.h"
#include "hw/qdev-properties.h"

/* State ------------------------------------------------------------------ */

typedef struct FWCfgEntry {
    uint32_t len;
    bool allow_write;
    uint8_t *data;
    void *opaque;
    FWCfgSelectCallback *select_cb;
    FWCfgWriteCallback *write_cb;
} FWCfgEntry;

/* One directory entry as the guest reads it (big-endian fields) */
typedef struct QEMU_PACKED FWCfgFile {
    uint32_t size;
    uint16_t select;
    uint16_t reserved;
    char name[FW_CFG_MAX_FILE_PATH];
} FWCfgFile;

struct FWCfgState {
    SysBusDevice parent_obj;

    /* Properties */
    uint16_t file_slots;
    bool dma_enabled;
    bool acpi_mr_restore;

    GMutex lock;
    FWCfgEntry *entries[2];     /* [0] generic keys, [1] x86's (bit 15) */
    FWCfgFile *files;           /* the directory, sorted by name */
    uint32_t nfiles;
    uint16_t cur_entry;
    uint32_t cur_offset;
    uint64_t dma_addr;
    AddressSpace *dma_as;
    MemoryRegion comb_iomem, dma_iomem;
};

static FWCfgState *fw_cfg_dev;

static uint16_t fw_cfg_max_entry(const FWCfgState *s)
{
    return FW_CFG_FILE_FIRST + s->file_slots;
}

static FWCfgEntry *fw_cfg_entry(FWCfgState *s, uint16_t key)
{
    if ((key & FW_CFG_ENTRY_MASK) >= fw_cfg_max_entry(s)) {
        return NULL;
    }
    return &s->entries[!!(key & FW_CFG_ARCH_LOCAL)][key & FW_CFG_ENTRY_MASK];
}

/* Register read/write ---------------------------------------------------- */

/* Selecting rewinds; an unknown key leaves nothing selected */
static void fw_cfg_select_locked(FWCfgState *s, uint16_t key)
{
    FWCfgEntry *e = fw_cfg_entry(s, key);

    s->cur_offset = 0;
    s->cur_entry = e ? key : FW_CFG_INVALID;
    if (e && e->select_cb) {
        e->select_cb(e->opaque);
    }
}

static FWCfgEntry *fw_cfg_current(FWCfgState *s)
{
    return s->cur_entry == FW_CFG_INVALID ? NULL
                                          : fw_cfg_entry(s, s->cur_entry);
}

static uint64_t fw_cfg_comb_read(void *opaque, hwaddr addr, unsigned size)
{
    FWCfgState *s = opaque;
    FWCfgEntry *e;
    uint8_t v = 0;

    g_mutex_lock(&s->lock);
    e = fw_cfg_current(s);
    if (e && e->data && s->cur_offset < e->len) {
        v = e->data[s->cur_offset++];
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void fw_cfg_comb_write(void *opaque, hwaddr addr, uint64_t value,
                              unsigned size)
{
    FWCfgState *s = opaque;

    /* A byte is a data write, which QEMU 7.2 ignores */
    if (size == 2) {
        g_mutex_lock(&s->lock);
        fw_cfg_select_locked(s, value);
        g_mutex_unlock(&s->lock);
    }
}

static bool fw_cfg_comb_accepts(void *opaque, hwaddr addr, unsigned size,
                                bool is_write)
{
    return size == 1 || (is_write && size == 2 && addr == 0);
}

static const MemoryRegionOps fw_cfg_comb_ops = {
    .read = fw_cfg_comb_read,
    .write = fw_cfg_comb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* A dword is refused whole, not split into a selector write */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .valid.accepts = fw_cfg_comb_accepts,
    .impl.min_access_size = 1,
    .impl.max_access_size = 2,
};

static bool dma_read(FWCfgState *s, uint64_t addr, void *buf, uint64_t len)
{
    return address_space_read(s->dma_as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                              len) == MEMTX_OK;
}

static bool dma_write(FWCfgState *s, uint64_t addr, const void *buf,
                      uint64_t len)
{
    return address_space_write(s->dma_as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                               len) == MEMTX_OK;
}

/*
 * Zeros for a read past an item's end, in pieces so that a length of 4 GiB
 * over unassigned space stops at the first error instead of walking it all
 */
static bool dma_zero(FWCfgState *s, uint64_t addr, uint64_t len)
{
    while (len) {
        uint64_t l = MIN(len, 4096 - (addr & 4095));

        if (address_space_set(s->dma_as, addr, 0, l,
                              MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            return false;
        }
        addr += l;
        len -= l;
    }
    return true;
}

static void fw_cfg_dma_transfer_locked(FWCfgState *s)
{
    uint64_t desc = s->dma_addr;
    uint8_t raw[16];
    uint32_t control, length, out;
    uint64_t address;
    bool read = false, write = false;
    FWCfgEntry *e;

    s->dma_addr = 0;
    if (!dma_read(s, desc, raw, sizeof(raw))) {
        uint32_t err = GUINT32_TO_BE(FW_CFG_DMA_CTL_ERROR);

        dma_write(s, desc, &err, 4);
        return;
    }
    memcpy(&control, raw, 4);
    memcpy(&length, raw + 4, 4);
    memcpy(&address, raw + 8, 8);
    control = GUINT32_FROM_BE(control);
    length = GUINT32_FROM_BE(length);
    address = GUINT64_FROM_BE(address);

    if (control & FW_CFG_DMA_CTL_SELECT) {
        fw_cfg_select_locked(s, control >> 16);
    }
    e = fw_cfg_current(s);
    if (control & FW_CFG_DMA_CTL_READ) {
        read = true;
    } else if (control & FW_CFG_DMA_CTL_WRITE) {
        write = true;
    } else if (!(control & FW_CFG_DMA_CTL_SKIP)) {
        length = 0;
    }

    out = 0;
    while (length && !(out & FW_CFG_DMA_CTL_ERROR)) {
        uint32_t len;

        if (!e || !e->data || s->cur_offset >= e->len) {
            len = length;
            if ((read && !dma_zero(s, address, len)) || write) {
                out |= FW_CFG_DMA_CTL_ERROR;
            }
        } else {
            len = MIN(length, e->len - s->cur_offset);
            if (read && !dma_write(s, address, e->data + s->cur_offset, len)) {
                out |= FW_CFG_DMA_CTL_ERROR;
            }
            if (write) {
                /* A write must fit the item and be allowed: all or nothing */
                if (!e->allow_write || len != length ||
                    !dma_read(s, address, e->data + s->cur_offset, len)) {
                    out |= FW_CFG_DMA_CTL_ERROR;
                } else if (e->write_cb) {
                    e->write_cb(e->opaque, s->cur_offset, len);
                }
            }
            s->cur_offset += len;
        }
        address += len;
        length -= len;
    }
    out = GUINT32_TO_BE(out);
    dma_write(s, desc, &out, 4);
}

static uint64_t fw_cfg_dma_read(void *opaque, hwaddr addr, unsigned size)
{
    uint64_t v = 0;
    unsigned i;

    /* The signature's bytes in address order (a big-endian register) */
    for (i = 0; i < size && addr + i < 8; i++) {
        v |= ((FW_CFG_DMA_SIGNATURE >> (8 * (7 - addr - i))) & 0xff)
             << (8 * i);
    }
    return v;
}

static void fw_cfg_dma_write(void *opaque, hwaddr addr, uint64_t value,
                             unsigned size)
{
    FWCfgState *s = opaque;

    g_mutex_lock(&s->lock);
    if (size == 4) {
        uint32_t v = GUINT32_SWAP_LE_BE((uint32_t)value);

        if (addr == 0) {
            s->dma_addr = (uint64_t)v << 32;
        } else if (addr == 4) {
            s->dma_addr |= v;
            fw_cfg_dma_transfer_locked(s);
        }
    } else if (size == 8 && addr == 0) {
        s->dma_addr = GUINT64_SWAP_LE_BE(value);
        fw_cfg_dma_transfer_locked(s);
    }
    g_mutex_unlock(&s->lock);
}

/* Reads of any size; writes of the register's halves or the whole */
static bool fw_cfg_dma_accepts(void *opaque, hwaddr addr, unsigned size,
                               bool is_write)
{
    return !is_write || (size == 4 && (addr == 0 || addr == 4)) ||
           (size == 8 && addr == 0);
}

static const MemoryRegionOps fw_cfg_dma_ops = {
    .read = fw_cfg_dma_read,
    .write = fw_cfg_dma_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .valid.accepts = fw_cfg_dma_accepts,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
};

/* Items ------------------------------------------------------------------ */

static void fw_cfg_set_entry(FWCfgState *s, uint16_t key, uint8_t *data,
                             size_t len, bool allow_write,
                             FWCfgSelectCallback *select_cb,
                             FWCfgWriteCallback *write_cb, void *opaque)
{
    FWCfgEntry *e = fw_cfg_entry(s, key);

    g_assert(e && len <= UINT32_MAX);
    g_free(e->data);
    *e = (FWCfgEntry){
        .len = len, .data = data, .allow_write = allow_write,
        .select_cb = select_cb, .write_cb = write_cb, .opaque = opaque,
    };
}

void fw_cfg_add_bytes(FWCfgState *s, uint16_t key, const void *data,
                      size_t len)
{
    g_mutex_lock(&s->lock);
    fw_cfg_set_entry(s, key, len ? g_memdup2(data, len) : NULL, len, false,
                     NULL, NULL, NULL);
    g_mutex_unlock(&s->lock);
}

void fw_cfg_add_string(FWCfgState *s, uint16_t key, const char *value)
{
    fw_cfg_add_bytes(s, key, value, strlen(value) + 1);
}

void fw_cfg_add_i16(FWCfgState *s, uint16_t key, uint16_t value)
{
    uint16_t le = GUINT16_TO_LE(value);

    fw_cfg_add_bytes(s, key, &le, sizeof(le));
}

void fw_cfg_add_i32(FWCfgState *s, uint16_t key, uint32_t value)
{
    uint32_t le = GUINT32_TO_LE(value);

    fw_cfg_add_bytes(s, key, &le, sizeof(le));
}

void fw_cfg_add_i64(FWCfgState *s, uint16_t key, uint64_t value)
{
    uint64_t le = GUINT64_TO_LE(value);

    fw_cfg_add_bytes(s, key, &le, sizeof(le));
}

/* The directory item: be32 count, then the entries */
static void fw_cfg_update_dir_locked(FWCfgState *s)
{
    size_t len = 4 + s->nfiles * sizeof(FWCfgFile);
    uint8_t *dir = g_malloc0(len);
    uint32_t count = GUINT32_TO_BE(s->nfiles);

    memcpy(dir, &count, 4);
    memcpy(dir + 4, s->files, s->nfiles * sizeof(FWCfgFile));
    fw_cfg_set_entry(s, FW_CFG_FILE_DIR, dir, len, false, NULL, NULL, NULL);
}

bool fw_cfg_add_file_callback(FWCfgState *s, const char *name,
                              FWCfgSelectCallback *select_cb,
                              FWCfgWriteCallback *write_cb, void *opaque,
                              const void *data, size_t len, bool read_only,
                              Error **errp)
{
    uint32_t i, pos;
    FWCfgEntry *first;

    g_mutex_lock(&s->lock);
    if (s->nfiles >= s->file_slots) {
        g_mutex_unlock(&s->lock);
        error_setg(errp, "fw_cfg: no more file slots for %s (x-file-slots "
                   "is %u)", name, s->file_slots);
        return false;
    }
    for (pos = 0; pos < s->nfiles; pos++) {
        int c = strncmp(name, s->files[pos].name, FW_CFG_MAX_FILE_PATH);

        if (!c) {
            g_mutex_unlock(&s->lock);
            error_setg(errp, "duplicate fw_cfg file name: %s", name);
            return false;
        }
        if (c < 0) {
            break;
        }
    }
    /* Files after pos move up one key, as QEMU 7.2's sorted insert does */
    first = &s->entries[0][FW_CFG_FILE_FIRST];
    memmove(&first[pos + 1], &first[pos],
            (s->nfiles - pos) * sizeof(FWCfgEntry));
    memset(&first[pos], 0, sizeof(FWCfgEntry));
    memmove(&s->files[pos + 1], &s->files[pos],
            (s->nfiles - pos) * sizeof(FWCfgFile));
    s->nfiles++;
    for (i = pos + 1; i < s->nfiles; i++) {
        s->files[i].select = GUINT16_TO_BE(FW_CFG_FILE_FIRST + i);
    }
    memset(&s->files[pos], 0, sizeof(FWCfgFile));
    g_strlcpy(s->files[pos].name, name, FW_CFG_MAX_FILE_PATH);
    s->files[pos].size = GUINT32_TO_BE(len);
    s->files[pos].select = GUINT16_TO_BE(FW_CFG_FILE_FIRST + pos);
    fw_cfg_set_entry(s, FW_CFG_FILE_FIRST + pos,
                     len ? g_memdup2(data, len) : NULL, len, !read_only,
                     select_cb, write_cb, opaque);
    fw_cfg_update_dir_locked(s);
    g_mutex_unlock(&s->lock);
    return true;
}

bool fw_cfg_add_file(FWCfgState *s, const char *name, const void *data,
                     size_t len, Error **errp)
{
    return fw_cfg_add_file_callback(s, name, NULL, NULL, NULL, data, len,
                                    true, errp);
}

uint8_t *fw_cfg_file_data(FWCfgState *s, const char *name, size_t *len)
{
    uint32_t i;

    for (i = 0; i < s->nfiles; i++) {
        if (!strncmp(name, s->files[i].name, FW_CFG_MAX_FILE_PATH)) {
            FWCfgEntry *e = &s->entries[0][FW_CFG_FILE_FIRST + i];

            *len = e->len;
            return e->data;
        }
    }
    *len = 0;
    return NULL;
}

FWCfgState *fw_cfg_find(void)
{
    return fw_cfg_dev;
}

/* Reset ------------------------------------------------------------------ */

static void fw_cfg_reset(DeviceState *dev)
{
    FWCfgState *s = (FWCfgState *)dev;

    g_mutex_lock(&s->lock);
    fw_cfg_select_locked(s, FW_CFG_SIGNATURE);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void fw_cfg_io_init(Object *obj)
{
    FWCfgState *s = (FWCfgState *)obj;

    g_mutex_init(&s->lock);
    s->cur_entry = FW_CFG_INVALID;
    s->dma_as = &address_space_memory;
}

static bool fw_cfg_io_realize(DeviceState *dev, Error **errp)
{
    FWCfgState *s = (FWCfgState *)dev;
    uint32_t version = FW_CFG_VERSION;

    if (fw_cfg_dev) {
        error_setg(errp, "at most one fw_cfg device is permitted");
        return false;
    }
    /* QEMU 7.2's limit: the file keys must stay below the write channel */
    if (s->file_slots < FW_CFG_FILE_SLOTS_MIN ||
        fw_cfg_max_entry(s) > FW_CFG_WRITE_CHANNEL) {
        error_setg(errp, "\"file_slots\" must be between %d and %d",
                   FW_CFG_FILE_SLOTS_MIN,
                   FW_CFG_WRITE_CHANNEL - FW_CFG_FILE_FIRST);
        return false;
    }
    s->entries[0] = g_new0(FWCfgEntry, fw_cfg_max_entry(s));
    s->entries[1] = g_new0(FWCfgEntry, fw_cfg_max_entry(s));
    s->files = g_new0(FWCfgFile, s->file_slots);
    fw_cfg_dev = s;

    fw_cfg_add_bytes(s, FW_CFG_SIGNATURE, "QEMU", 4);
    fw_cfg_update_dir_locked(s);
    memory_region_init_io(&s->comb_iomem, OBJECT(s), &fw_cfg_comb_ops, s,
                          "fwcfg", 2);
    if (s->dma_enabled) {
        version |= FW_CFG_VERSION_DMA;
        memory_region_init_io(&s->dma_iomem, OBJECT(s), &fw_cfg_dma_ops, s,
                              "fwcfg.dma", 8);
    }
    fw_cfg_add_i32(s, FW_CFG_ID, version);
    return true;
}

/* Property table --------------------------------------------------------- */

/* QEMU 7.2's split: acpi-mr-restore is the abstract fw_cfg's */
static Property fw_cfg_properties[] = {
    DEFINE_PROP_BOOL("acpi-mr-restore", FWCfgState, acpi_mr_restore, true),
    DEFINE_PROP_END_OF_LIST(),
};

static Property fw_cfg_io_properties[] = {
    DEFINE_PROP_BOOL("dma_enabled", FWCfgState, dma_enabled, true),
    DEFINE_PROP_UINT16("x-file-slots", FWCfgState, file_slots, 0x20),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

FWCfgState *fw_cfg_init_io_dma(uint32_t iobase, uint32_t dma_iobase,
                               AddressSpace *dma_as, Error **errp)
{
    DeviceState *dev = qdev_new(TYPE_FW_CFG_IO);
    FWCfgState *s = (FWCfgState *)dev;

    object_property_add_child(OBJECT(current_machine), "fw_cfg",
                              OBJECT(dev));
    s->dma_as = dma_as;
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), errp)) {
        return NULL;
    }
    sysbus_add_io(SYS_BUS_DEVICE(dev), iobase, &s->comb_iomem);
    if (s->dma_enabled) {
        sysbus_add_io(SYS_BUS_DEVICE(dev), dma_iobase, &s->dma_iomem);
    }
    return s;
}

static void fw_cfg_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->reset = fw_cfg_reset;
    device_class_set_props(dc, fw_cfg_properties);
}

static void fw_cfg_io_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = fw_cfg_io_realize;
    device_class_set_props(dc, fw_cfg_io_properties);
    dc->categories = 1u << DEVICE_CATEGORY_MISC;
}

static const TypeInfo fw_cfg_types[] = {
    { .name = TYPE_FW_CFG, .parent = TYPE_SYS_BUS_DEVICE,
      .abstract = true, .instance_size = sizeof(FWCfgState),
      .class_init = fw_cfg_class_init },
    { .name = TYPE_FW_CFG_IO, .parent = TYPE_FW_CFG,
      .instance_init = fw_cfg_io_init, .class_init = fw_cfg_io_class_init },
};

static void fw_cfg_register_types(void)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(fw_cfg_types); i++) {
        type_register_static(&fw_cfg_types[i]);
    }
}
type_init(fw_cfg_register_types)
