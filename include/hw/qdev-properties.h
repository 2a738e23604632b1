/*
 * Device property tables, QEMU-style: an array of Property, one per
 * field, ended by DEFINE_PROP_END_OF_LIST(), given to the class with
 * device_class_set_props().  Each entry becomes a class property of the
 * QOM type with QEMU's qdev type name ("uint32", "str", "OnOffAuto",
 * "chr", ...) and default, so -device, -global, compat entries,
 * device-list-properties, -device X,help and info qtree all come from
 * the one table.  Values are checked and converted as QEMU's visitors
 * do, with its texts; once the device is realized they are fixed.
 */
#ifndef HW_QDEV_PROPERTIES_H
#define HW_QDEV_PROPERTIES_H

#include <stddef.h>

#include "hw/qdev-core.h"

typedef struct Chardev Chardev;

typedef struct PropertyInfo {
    const char *name;           /* the QOM type name */
    const char *description;    /* shown by -device X,help */
    PropKind kind;              /* a field kind of qom/field.c, or OTHER */
    const char *const *enum_table;  /* enum values (an int field) */
    ObjectPropertyGet *get;     /* for kind OTHER */
    ObjectPropertySet *set;
    /* info qtree's value, when not the plain one ("4 (0x4)") */
    char *(*print)(Object *obj, Property *prop);
    /* set takes -device/-global text as a string (ObjectProperty's flag) */
    bool setter_parses_text;
} PropertyInfo;

struct Property {
    const char *name;
    const PropertyInfo *info;
    ptrdiff_t offset;
    bool set_default;
    union {
        int64_t i;
        uint64_t u;
    } defval;
};

extern const PropertyInfo qdev_prop_bool;
/* QEMU's DEFINE_PROP_BIT: a bool whose help says "on/off" */
extern const PropertyInfo qdev_prop_bit;
extern const PropertyInfo qdev_prop_uint8;
extern const PropertyInfo qdev_prop_uint16;
extern const PropertyInfo qdev_prop_uint32;
extern const PropertyInfo qdev_prop_uint64;
extern const PropertyInfo qdev_prop_int32;
extern const PropertyInfo qdev_prop_int64;
extern const PropertyInfo qdev_prop_string;
extern const PropertyInfo qdev_prop_on_off_auto;
extern const PropertyInfo qdev_prop_chr;
extern const PropertyInfo qdev_prop_losttickpolicy;
extern const PropertyInfo qdev_prop_fdc_drive_type;
extern const PropertyInfo qdev_prop_audiodev;
extern const PropertyInfo qdev_prop_size;
extern const PropertyInfo qdev_prop_pcie_link_speed;
extern const PropertyInfo qdev_prop_pcie_link_width;

/* A compile-time check that the field has the property's C type */
#define QDEV_FIELD_CHECK(state, field, type)                                \
    (0 * sizeof((type *)0 - &((state *)0)->field))

#define DEFINE_PROP(_name, _state, _field, _info, _type)                    \
    { .name = (_name), .info = &(_info),                                    \
      .offset = offsetof(_state, _field) +                                  \
                QDEV_FIELD_CHECK(_state, _field, _type) }

#define DEFINE_PROP_SIGNED(_name, _state, _field, _def, _info, _type)       \
    { .name = (_name), .info = &(_info),                                    \
      .offset = offsetof(_state, _field) +                                  \
                QDEV_FIELD_CHECK(_state, _field, _type),                    \
      .set_default = true, .defval.i = (_type)(_def) }

#define DEFINE_PROP_UNSIGNED(_name, _state, _field, _def, _info, _type)     \
    { .name = (_name), .info = &(_info),                                    \
      .offset = offsetof(_state, _field) +                                  \
                QDEV_FIELD_CHECK(_state, _field, _type),                    \
      .set_default = true, .defval.u = (_type)(_def) }

#define DEFINE_PROP_BOOL(_n, _s, _f, _d)                                    \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_bool, bool)
#define DEFINE_PROP_BIT(_n, _s, _f, _d)                                     \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_bit, bool)
#define DEFINE_PROP_UINT8(_n, _s, _f, _d)                                   \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_uint8, uint8_t)
#define DEFINE_PROP_UINT16(_n, _s, _f, _d)                                  \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_uint16, uint16_t)
#define DEFINE_PROP_UINT32(_n, _s, _f, _d)                                  \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_uint32, uint32_t)
#define DEFINE_PROP_UINT64(_n, _s, _f, _d)                                  \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_uint64, uint64_t)
#define DEFINE_PROP_INT32(_n, _s, _f, _d)                                   \
    DEFINE_PROP_SIGNED(_n, _s, _f, _d, qdev_prop_int32, int32_t)
#define DEFINE_PROP_INT64(_n, _s, _f, _d)                                   \
    DEFINE_PROP_SIGNED(_n, _s, _f, _d, qdev_prop_int64, int64_t)
#define DEFINE_PROP_ON_OFF_AUTO(_n, _s, _f, _d)                             \
    DEFINE_PROP_SIGNED(_n, _s, _f, _d, qdev_prop_on_off_auto, int)
#define DEFINE_PROP_LOSTTICKPOLICY(_n, _s, _f, _d)                          \
    DEFINE_PROP_SIGNED(_n, _s, _f, _d, qdev_prop_losttickpolicy, int)
/* No default: NULL, read as "" */
#define DEFINE_PROP_STRING(_n, _s, _f)                                      \
    DEFINE_PROP(_n, _s, _f, qdev_prop_string, char *)
/* An audiodev id (no sound here: kept, not used) */
#define DEFINE_AUDIO_PROPERTIES(_s, _f)                                     \
    DEFINE_PROP("audiodev", _s, _f, qdev_prop_audiodev, char *)
/* A chardev by id; the field holds the Chardev (hw/qdev-properties.c) */
#define DEFINE_PROP_CHR(_n, _s, _f)                                         \
    DEFINE_PROP(_n, _s, _f, qdev_prop_chr, Chardev *)
#define DEFINE_PROP_SIZE(_n, _s, _f, _d)                                    \
    DEFINE_PROP_UNSIGNED(_n, _s, _f, _d, qdev_prop_size, uint64_t)
#define DEFINE_PROP_END_OF_LIST() { .name = NULL }

/* QEMU's LostTickPolicy values */
typedef enum LostTickPolicy {
    LOST_TICK_POLICY_DISCARD,
    LOST_TICK_POLICY_DELAY,
    LOST_TICK_POLICY_SLEW,
} LostTickPolicy;

/* Board helpers: set a property or abort (a board's own mistake) */
void qdev_prop_set_uint64(DeviceState *dev, const char *name, uint64_t v);
void qdev_prop_set_uint32(DeviceState *dev, const char *name, uint32_t v);
void qdev_prop_set_uint16(DeviceState *dev, const char *name, uint16_t v);
void qdev_prop_set_uint8(DeviceState *dev, const char *name, uint8_t v);
void qdev_prop_set_int32(DeviceState *dev, const char *name, int32_t v);
void qdev_prop_set_bit(DeviceState *dev, const char *name, bool v);
void qdev_prop_set_string(DeviceState *dev, const char *name, const char *v);
void qdev_prop_set_chr(DeviceState *dev, const char *name,
                       Chardev *chr);

/*
 * The default of a class property as JSON (NULL: none), for
 * device-list-properties' "default-value" and -device X,help
 */
JsonNode *qdev_property_default(ObjectProperty *prop);
/* info qtree's text for a property value ("4 (0x4)", "\"str\"") */
char *qdev_property_print(Object *obj, ObjectProperty *prop);
/* The Property entry a class property came from, or NULL */
Property *qdev_property_entry(ObjectProperty *prop);

#endif
