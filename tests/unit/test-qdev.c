/*
 * qdev alone (hw/qdev-core.h): property tables and their checks, globals
 * and compat entries on device properties, realize and reset order, the
 * composition tree and bus names, bus lookup, GPIO lines, info qtree, and
 * hotplug through device_add/device_del with DEVICE_DELETED.  Texts are
 * QEMU 7.2's (the comments say where they were read).
 */
#include <string.h>

#include <glib.h>

#include "hw/boards.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"

/* A bus and devices to test with ------------------------------------------- */

#define TYPE_TEST_BUS "test-bus"
#define TYPE_TEST_DEV "test-dev"
#define TYPE_TEST_SUBDEV "test-subdev"
#define TYPE_TEST_BRIDGE "test-bridge"

typedef struct TestDev {
    DeviceState parent_obj;
    bool flag;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    int32_t i32;
    char *str;
    int mode;           /* OnOffAuto */
    int policy;         /* LostTickPolicy */
    qemu_irq out[2];
    int in_level[2];
} TestDev;

typedef struct TestBridge {
    SysBusDevice parent_obj;
    BusState *bus;
} TestBridge;

static GString *events;     /* realize/reset order, "r:NAME " / "x:NAME " */

static const char *dev_name(DeviceState *dev)
{
    return OBJECT(dev)->name ? OBJECT(dev)->name : "?";
}

static bool test_dev_realize(DeviceState *dev, Error **errp)
{
    TestDev *t = (TestDev *)dev;

    if (t->u32 == 0xbad) {
        error_setg(errp, "u32 0xbad refused");
        return false;
    }
    g_string_append_printf(events, "r:%s ", dev_name(dev));
    return true;
}

static void test_dev_reset(DeviceState *dev)
{
    g_string_append_printf(events, "x:%s ", dev_name(dev));
}

static void test_dev_in(void *opaque, int n, int level)
{
    ((TestDev *)opaque)->in_level[n] = level;
}

static void test_dev_initfn(Object *obj)
{
    TestDev *t = (TestDev *)obj;

    qdev_init_gpio_in(DEVICE(obj), test_dev_in, 2);
    qdev_init_gpio_out(DEVICE(obj), t->out, 2);
}

static Property test_dev_props[] = {
    DEFINE_PROP_BOOL("flag", TestDev, flag, true),
    DEFINE_PROP_UINT8("u8", TestDev, u8, 8),
    DEFINE_PROP_UINT16("u16", TestDev, u16, 0x1234),
    DEFINE_PROP_UINT32("u32", TestDev, u32, -1),
    DEFINE_PROP_INT32("i32", TestDev, i32, -5),
    DEFINE_PROP_STRING("str", TestDev, str),
    DEFINE_PROP_ON_OFF_AUTO("mode", TestDev, mode, ON_OFF_AUTO_AUTO),
    DEFINE_PROP_LOSTTICKPOLICY("policy", TestDev, policy,
                               LOST_TICK_POLICY_DISCARD),
    DEFINE_PROP_END_OF_LIST(),
};

static Property test_subdev_props[] = {
    DEFINE_PROP_UINT32("extra", TestDev, u32, 7),
    DEFINE_PROP_END_OF_LIST(),
};

static void test_dev_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->bus_type = TYPE_TEST_BUS;
    dc->realize = test_dev_realize;
    dc->reset = test_dev_reset;
    dc->desc = "a device for tests";
    dc->categories = 1u << DEVICE_CATEGORY_MISC;
    device_class_set_props(dc, test_dev_props);
}

static void test_subdev_class_init(ObjectClass *oc, void *data)
{
    device_class_set_props(DEVICE_CLASS(oc), test_subdev_props);
}

static bool test_bridge_realize(DeviceState *dev, Error **errp)
{
    g_string_append_printf(events, "r:%s ", dev_name(dev));
    return true;
}

static void test_bridge_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = test_bridge_realize;
    dc->reset = test_dev_reset;
}

static void test_register_types(void)
{
    static const TypeInfo infos[] = {
        { .name = TYPE_TEST_BUS, .parent = TYPE_BUS,
          .instance_size = sizeof(BusState) },
        { .name = TYPE_TEST_DEV, .parent = TYPE_DEVICE,
          .instance_size = sizeof(TestDev), .instance_init = test_dev_initfn,
          .class_init = test_dev_class_init },
        { .name = TYPE_TEST_SUBDEV, .parent = TYPE_TEST_DEV,
          .class_init = test_subdev_class_init },
        { .name = TYPE_TEST_BRIDGE, .parent = TYPE_SYS_BUS_DEVICE,
          .instance_size = sizeof(TestBridge),
          .class_init = test_bridge_class_init },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(test_register_types)

/* A machine's containers and a bridge with a test bus */
static BusState *test_bus;

static void setup_machine(void)
{
    Object *machine = object_new(TYPE_CONTAINER);
    const char *names[] = { "unattached", "peripheral", "peripheral-anon" };
    TestBridge *br;
    size_t i;

    object_property_add_child(object_get_root(), "machine", machine);
    object_unref(machine);
    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        Object *c = object_new(TYPE_CONTAINER);

        object_property_add_child(machine, names[i], c);
        object_unref(c);
    }
    sysbus_get_default();
    events = g_string_new(NULL);
    br = (TestBridge *)qdev_new(TYPE_TEST_BRIDGE);
    g_assert_true(sysbus_realize_and_unref(SYS_BUS_DEVICE(br), &error_fatal));
    test_bus = br->bus = qbus_new(TYPE_TEST_BUS, DEVICE(br), NULL);
}

static char *get_json(Object *obj, const char *name)
{
    JsonNode *n = object_property_get(obj, name, &error_fatal);
    char *s = json_to_string(n, FALSE);

    json_node_unref(n);
    return s;
}

/* Properties ---------------------------------------------------------------- */

typedef struct PropTypeCase {
    const char *name, *type, *def_json;
} PropTypeCase;

/* QEMU's qdev type names and device-list-properties' default-value */
static const PropTypeCase prop_type_cases[] = {
    { "flag", "bool", "true" },
    { "u8", "uint8", "8" },
    { "u16", "uint16", "4660" },
    { "u32", "uint32", "4294967295" },
    { "i32", "int32", "-5" },
    { "str", "str", NULL },
    { "mode", "OnOffAuto", "\"auto\"" },
    { "policy", "LostTickPolicy", "\"discard\"" },
};

static void test_prop_types(void)
{
    ObjectClass *oc = object_class_by_name(TYPE_TEST_DEV);
    Object *obj = object_new(TYPE_TEST_DEV);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(prop_type_cases); i++) {
        const PropTypeCase *c = &prop_type_cases[i];
        ObjectProperty *p = object_class_property_find(oc, c->name);
        JsonNode *def;
        char *j;

        g_assert_nonnull(p);
        g_assert_cmpstr(p->type, ==, c->type);
        def = qdev_property_default(p);
        j = def ? json_to_string(def, FALSE) : NULL;
        g_assert_cmpstr(j, ==, c->def_json);
        if (def) {
            /* The default is what a new instance holds */
            char *v = get_json(obj, c->name);

            g_assert_cmpstr(v, ==, j);
            g_free(v);
            json_node_unref(def);
        }
        g_free(j);
    }
    g_assert_cmpint(((TestDev *)obj)->u16, ==, 0x1234);
    object_unref(obj);
}

typedef struct PropSetCase {
    const char *name, *value;   /* a command-line string */
    const char *error;          /* NULL: accepted */
    const char *result;         /* JSON read back */
} PropSetCase;

/* QEMU 7.2's string-parser texts (its -global) */
static const PropSetCase prop_set_cases[] = {
    { "u8", "255", NULL, "255" },
    { "u8", "256", "Parameter 'u8' expects uint8_t", NULL },
    { "u8", "x", "Parameter 'u8' expects uint64", NULL },
    { "u16", "0x10", NULL, "16" },
    { "u32", "-1", "Parameter 'u32' expects uint32_t", NULL },
    { "i32", "-2147483648", NULL, "-2147483648" },
    { "i32", "2147483648", "Parameter 'i32' expects int32_t", NULL },
    { "flag", "off", NULL, "false" },
    { "flag", "maybe", "Parameter 'flag' expects 'on' or 'off'", NULL },
    { "mode", "on", NULL, "\"on\"" },
    { "mode", "x", "Parameter 'mode' does not accept value 'x'", NULL },
    { "policy", "slew", NULL, "\"slew\"" },
    { "policy", "x", "Parameter 'policy' does not accept value 'x'", NULL },
    { "str", "a,b", NULL, "\"a,b\"" },
    { "nosuch", "1", "Property 'test-dev.nosuch' not found", NULL },
};

static void test_prop_set(const void *data)
{
    const PropSetCase *c = data;
    Object *obj = object_new(TYPE_TEST_DEV);
    Error *err = NULL;
    bool ok = object_property_parse(obj, c->name, c->value, &err);

    if (c->error) {
        g_assert_false(ok);
        g_assert_cmpstr(error_get_pretty(err), ==, c->error);
        error_free(err);
    } else {
        char *v;

        g_assert_true(ok);
        v = get_json(obj, c->name);
        g_assert_cmpstr(v, ==, c->result);
        g_free(v);
    }
    object_unref(obj);
}

/* qom-set after realize (texts read from QEMU 7.2's qom-set) */
static void test_prop_after_realize(void)
{
    DeviceState *a = qdev_new(TYPE_TEST_DEV);
    DeviceState *b = qdev_new(TYPE_TEST_DEV);
    Error *err = NULL;

    g_assert_true(qdev_set_id(b, "named", &error_fatal));
    g_assert_true(qdev_realize(a, test_bus, &error_fatal));
    g_assert_true(qdev_realize(b, test_bus, &error_fatal));
    g_assert_false(object_property_parse(OBJECT(a), "u8", "1", &err));
    g_assert_cmpstr(error_get_pretty(err), ==, "Attempt to set property 'u8' "
                    "on anonymous device (type 'test-dev') after it was "
                    "realized");
    error_free(err);
    err = NULL;
    g_assert_false(object_property_parse(OBJECT(b), "u8", "1", &err));
    g_assert_cmpstr(error_get_pretty(err), ==, "Attempt to set property 'u8' "
                    "on device 'named' (type 'test-dev') after it was "
                    "realized");
    error_free(err);
    qdev_unparent(a);
    qdev_unparent(b);
    object_unref(OBJECT(a));
    object_unref(OBJECT(b));
}

/* Globals and compat entries ---------------------------------------------- */

static const GlobalProperty compat_entries[] = {
    { TYPE_TEST_DEV, "u8", "1" },       /* every test-dev, subtypes too */
    { TYPE_TEST_DEV, "u16", "2" },
    { TYPE_TEST_SUBDEV, "extra", "9" }, /* only the subtype */
    { TYPE_TEST_DEV, "nosuch", "1", false, true },   /* optional */
};

static void test_globals(void)
{
    GPtrArray *compat = g_ptr_array_new();
    GPtrArray *globals = g_ptr_array_new();
    GlobalProperty g_u16 = { TYPE_TEST_DEV, "u16", "3" };
    GlobalProperty g_other = { "no-such-type", "x", "1" };
    TestDev *t, *sub;

    compat_props_add(compat, compat_entries, G_N_ELEMENTS(compat_entries));
    g_ptr_array_add(globals, &g_u16);
    g_ptr_array_add(globals, &g_other);
    qdev_set_compat_props(compat);
    qdev_set_global_props(globals);

    /* default < compat entry < -global < the creator's own value */
    t = (TestDev *)qdev_new(TYPE_TEST_DEV);
    g_assert_cmpint(t->u8, ==, 1);
    g_assert_cmpint(t->u16, ==, 3);
    g_assert_false(object_property_is_user_set(OBJECT(t), "u8"));
    g_assert_true(object_property_parse(OBJECT(t), "u16", "4", NULL));
    g_assert_cmpint(t->u16, ==, 4);
    g_assert_true(g_u16.used);
    g_assert_false(g_other.used);
    sub = (TestDev *)qdev_new(TYPE_TEST_SUBDEV);
    g_assert_cmpint(sub->u32, ==, 9);
    g_assert_cmpint(sub->u8, ==, 1);
    object_unref(OBJECT(t));
    object_unref(OBJECT(sub));
    qdev_set_compat_props(NULL);
    qdev_set_global_props(NULL);
    g_ptr_array_free(compat, TRUE);
    g_ptr_array_free(globals, TRUE);
}

/* A -global that cannot apply fails the device's creation (QEMU exits) */
static void test_global_error(void)
{
    GPtrArray *globals = g_ptr_array_new();
    GlobalProperty bad = { TYPE_TEST_DEV, "u8", "300" };
    DeviceState *dev;
    Error *err = NULL;

    g_ptr_array_add(globals, &bad);
    qdev_set_global_props(globals);
    dev = qdev_new(TYPE_TEST_DEV);
    g_assert_false(qdev_realize(dev, test_bus, &err));
    g_assert_cmpstr(error_get_pretty(err), ==, "can't apply global "
                    "test-dev.u8=300: Parameter 'u8' expects uint8_t");
    error_free(err);
    qdev_unparent(dev);
    object_unref(OBJECT(dev));
    qdev_set_global_props(NULL);
    g_ptr_array_free(globals, TRUE);
}

/* Realize, reset, composition ------------------------------------------------- */

static void test_tree(void)
{
    DeviceState *a = qdev_new(TYPE_TEST_DEV), *b = qdev_new(TYPE_TEST_DEV);
    DeviceState *u = qdev_new(TYPE_TEST_DEV);
    BusState *named;
    char *path;

    g_string_truncate(events, 0);
    g_assert_true(qdev_set_id(a, "alpha", &error_fatal));
    g_assert_true(qdev_set_id(b, NULL, &error_fatal));
    g_assert_false(qdev_set_id(u, "alpha", NULL));
    g_assert_true(qdev_realize(a, test_bus, &error_fatal));
    g_assert_true(qdev_realize(b, test_bus, &error_fatal));
    g_assert_true(qdev_realize(u, test_bus, &error_fatal));

    path = object_get_canonical_path(OBJECT(a));
    g_assert_cmpstr(path, ==, "/machine/peripheral/alpha");
    g_free(path);
    path = object_get_canonical_path(OBJECT(b));
    g_assert_true(g_str_has_prefix(path, "/machine/peripheral-anon/device["));
    g_free(path);
    /* A board device goes to unattached when realized */
    path = object_get_canonical_path(OBJECT(u));
    g_assert_true(g_str_has_prefix(path, "/machine/unattached/device["));
    g_free(path);
    /* Buses: the type in lower case and a count; or the provider's id */
    g_assert_true(g_str_has_prefix(test_bus->name, "test-bus."));
    named = qbus_new(TYPE_TEST_BUS, a, NULL);
    g_assert_cmpstr(named->name, ==, "alpha.0");
    g_assert_true(qbus_find("alpha.0", NULL) == named);
    g_assert_null(qbus_find("nosuch", NULL));
    g_assert_true(qdev_find_recursive(sysbus_get_default(), "alpha") == a);
    /* The first bus of a type with room, depth first */
    g_assert_true(qbus_find_recursive(sysbus_get_default(), NULL,
                                      TYPE_TEST_BUS) == test_bus);

    /* Reset: a device's buses first; a bus's devices newest first */
    g_string_truncate(events, 0);
    qemu_devices_reset();
    path = g_strdup_printf("x:%s x:%s x:alpha x:%s ", dev_name(u),
                           dev_name(b), dev_name(test_bus->parent));
    g_assert_cmpstr(events->str, ==, path);
    g_free(path);
    qdev_unparent(a);
    qdev_unparent(b);
    qdev_unparent(u);
    object_unref(OBJECT(a));
    object_unref(OBJECT(b));
    object_unref(OBJECT(u));
}

/* A failed realize leaves nothing on the bus */
static void test_realize_error(void)
{
    DeviceState *d = qdev_new(TYPE_TEST_DEV);
    Error *err = NULL;
    guint before = test_bus->children->len;

    qdev_prop_set_uint32(d, "u32", 0xbad);
    g_assert_false(qdev_realize(d, test_bus, &err));
    g_assert_cmpstr(error_get_pretty(err), ==, "u32 0xbad refused");
    error_free(err);
    g_assert_false(d->realized);
    qdev_unparent(d);
    object_unref(OBJECT(d));
    g_assert_cmpuint(test_bus->children->len, ==, before);
}

static void test_gpio_and_qtree(void)
{
    DeviceState *a = qdev_new(TYPE_TEST_DEV), *b = qdev_new(TYPE_TEST_DEV);
    TestDev *ta = (TestDev *)a, *tb = (TestDev *)b;
    GString *out = g_string_new(NULL);
    char *link;

    g_assert_true(qdev_set_id(a, "src", &error_fatal));
    g_assert_true(qdev_realize(a, test_bus, &error_fatal));
    g_assert_true(qdev_realize(b, test_bus, &error_fatal));
    qdev_connect_gpio_out(a, 1, qdev_get_gpio_in(b, 0));
    qemu_irq_raise(ta->out[1]);
    g_assert_cmpint(tb->in_level[0], ==, 1);
    qemu_irq_lower(ta->out[1]);
    g_assert_cmpint(tb->in_level[0], ==, 0);
    /* The output is a link to the input line, a child of its device */
    link = get_json(OBJECT(a), "unnamed-gpio-out[1]");
    g_assert_true(g_str_has_suffix(link, "/unnamed-gpio-in[0]\""));
    g_free(link);

    qdev_print_tree(out);
    g_assert_nonnull(strstr(out->str,
        "      dev: test-dev, id \"src\"\n"
        "        gpio-in \"\" 2\n"
        "        gpio-out \"\" 2\n"
        "        flag = true\n"
        "        u8 = 8 (0x8)\n"
        "        u16 = 4660 (0x1234)\n"
        "        u32 = 4294967295 (0xffffffff)\n"
        "        i32 = -5 (0xfffffffffffffffb)\n"
        "        str = \"\"\n"
        "        mode = \"auto\"\n"
        "        policy = \"discard\"\n"));
    g_assert_true(g_str_has_prefix(out->str, "bus: main-system-bus\n"
                                   "  type System\n"));
    g_string_free(out, TRUE);
    qdev_unparent(a);
    qdev_unparent(b);
    object_unref(OBJECT(a));
    object_unref(OBJECT(b));
}

/* Hotplug ------------------------------------------------------------------ */

static GString *deleted;

static void observe_event(const char *event, JsonNode *data)
{
    char *j = json_to_string(data, FALSE);

    g_string_append_printf(deleted, "%s %s;", event, j);
    g_free(j);
}

static bool test_plug(Object *handler, DeviceState *dev, Error **errp)
{
    return true;
}

/* The handler unplugs at once, as a bus without guest cooperation */
static bool test_unplug_request(Object *handler, DeviceState *dev,
                                Error **errp)
{
    qdev_unplug_complete(dev);
    return true;
}

static const HotplugHandlerOps test_hotplug_ops = {
    .plug = test_plug,
    .unplug_request = test_unplug_request,
};

static JsonNode *device_add(const char *json, Error **errp)
{
    JsonNode *args = json_from_string(json, NULL);
    JsonNode *r = qmp_device_add(json_node_get_object(args), errp);

    json_node_unref(args);
    return r;
}

static void test_hotplug(void)
{
    QmpArgsDeviceDel del = { .id = "hp" };
    Error *err = NULL;
    JsonNode *r;
    char *msg;

    qdev_machine_creation_done();
    deleted = g_string_new(NULL);
    qmp_event_set_observer(observe_event);

    /* No handler: QEMU 7.2's refusal for ISA */
    r = device_add("{\"driver\": \"test-dev\", \"id\": \"hp\"}", &err);
    g_assert_null(r);
    msg = g_strdup_printf("Bus '%s' does not support hotplugging",
                          test_bus->name);
    g_assert_cmpstr(error_get_pretty(err), ==, msg);
    g_free(msg);
    error_free(err);
    err = NULL;

    qbus_set_hotplug_handler(test_bus, OBJECT(test_bus->parent),
                             &test_hotplug_ops);
    /* device_add takes numbers as strings, as QEMU's option parser */
    r = device_add("{\"driver\": \"test-dev\", \"id\": \"hp\", \"u8\": 3}",
                   &error_fatal);
    json_node_unref(r);
    g_assert_cmpint(((TestDev *)object_resolve_path(
                         "/machine/peripheral/hp"))->u8, ==, 3);
    g_assert_true(DEVICE(object_resolve_path(
                             "/machine/peripheral/hp"))->hotplugged);
    r = device_add("{\"driver\": \"test-dev\", \"id\": \"1a\"}", &err);
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "Parameter 'id' expects an identifier");
    error_free(err);
    err = NULL;
    r = device_add("{\"driver\": \"test-dev\", \"id\": \"hp\"}", &err);
    g_assert_cmpstr(error_get_pretty(err), ==, "Duplicate device ID 'hp'");
    error_free(err);
    err = NULL;

    r = qmp_device_del(&del, &error_fatal);
    json_node_unref(r);
    g_assert_null(object_resolve_path("/machine/peripheral/hp"));
    g_assert_cmpstr(deleted->str, ==, "DEVICE_DELETED {\"device\":\"hp\","
                    "\"path\":\"/machine/peripheral/hp\"};");
    del.id = "hp";
    g_assert_null(qmp_device_del(&del, &err));
    g_assert_cmpint(error_get_class(err), ==, ERROR_CLASS_DEVICE_NOT_FOUND);
    error_free(err);
    qmp_event_set_observer(NULL);
    qbus_set_hotplug_handler(test_bus, NULL, NULL);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    setup_machine();
    g_test_add_func("/qdev/props/types", test_prop_types);
    for (i = 0; i < G_N_ELEMENTS(prop_set_cases); i++) {
        char *name = g_strdup_printf("/qdev/props/set/%s=%s",
                                     prop_set_cases[i].name,
                                     prop_set_cases[i].value);
        g_test_add_data_func(name, &prop_set_cases[i], test_prop_set);
        g_free(name);
    }
    g_test_add_func("/qdev/props/after-realize", test_prop_after_realize);
    g_test_add_func("/qdev/globals/precedence", test_globals);
    g_test_add_func("/qdev/globals/error", test_global_error);
    g_test_add_func("/qdev/tree/composition-and-reset", test_tree);
    g_test_add_func("/qdev/tree/realize-error", test_realize_error);
    g_test_add_func("/qdev/tree/gpio-and-qtree", test_gpio_and_qtree);
    /* Last: the machine is "built" from here on */
    g_test_add_func("/qdev/zz-hotplug/device-add-del", test_hotplug);
    return g_test_run();
}
