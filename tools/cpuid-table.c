/*
 * cpuid-table: the CPUID table vCPU 0 would get, computed offline.
 *
 *   cpuid-table --machine M [--cpu C[,props]] --host FILE [--smp N]
 *               [--kernel-irqchip on|off|split] [--accel kvm|qtest]
 *               [-global D.P=V]... [--features] [--outdir DIR]
 *   cpuid-table --record-host FILE
 *
 * The CPU is built with the emulator's own code, in the emulator's order:
 * machine class (compat entries, default CPU version, legacy KVM
 * defaults), accelerator environment, -cpu parsing, x86_cpu_new(),
 * x86_cpu_realize() and x86_cpu_build_cpuid_table().  The host is a
 * recorded capability file (tests/data/hosts/, format in host-caps.c) or
 * "/dev/kvm" for this machine's KVM; with --accel qtest none is needed.
 *
 * --machine and --cpu may repeat ("--machine all" = every pc-* type): one
 * process then answers for every pair, which keeps the golden tables
 * (docs/golden-cpuid.md) fast.  Output is one line per leaf/subleaf,
 *
 *   0x00000001 0x00 eax=0x000006e8 ebx=0x00000800 ecx=0x80202001 edx=0x078bfbfd
 *
 * sorted by leaf then subleaf.  --features prints instead the CPU's
 * properties ("prop NAME VALUE") and every named feature bit with its
 * location ("cpuid LEAF SUBLEAF|- REG BIT NAME on|off", "msr INDEX BIT
 * NAME on|off"); scripts/machine-abi-diff compares two of those.  Several
 * pairs on stdout are separated by "# machine M cpu C" lines; --outdir
 * writes DIR/M/C.txt instead.  Warnings (filtered features) go to stderr
 * as the emulator prints them; errors are one line and exit status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "hw/boards.h"
#include "target/i386/cpu.h"
#include "target/i386/host-caps.h"

typedef struct ToolConfig {
    GPtrArray *machines;        /* char* */
    GPtrArray *cpus;            /* char* */
    GPtrArray *globals;         /* GlobalProperty* */
    const char *host_path;
    const char *accel;
    const char *irqchip;
    const char *outdir;
    unsigned smp;
    bool features;
} ToolConfig;

static void G_GNUC_NORETURN G_GNUC_PRINTF(1, 2) die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_vreport("", fmt, ap);
    va_end(ap);
    exit(1);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cpuid-table --machine M [--cpu C[,props]] --host FILE\n"
            "                   [--smp N] [--kernel-irqchip on|off|split]\n"
            "                   [--accel kvm|qtest] [-global D.P=V]...\n"
            "                   [--features] [--outdir DIR]\n"
            "       cpuid-table --record-host FILE\n"
            "--machine and --cpu may repeat; '--machine all' is every pc-*\n"
            "machine type; '--host /dev/kvm' reads this machine's KVM.\n");
}

/* Reads /dev/kvm; 77 (meson's "skip") when there is none. */
static X86HostCaps *read_live_host(void)
{
    Error *err = NULL;
    X86HostCaps *caps;
    int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

    if (fd < 0) {
        error_report("Could not access KVM kernel module: %s",
                     strerror(errno));
        exit(errno == ENOENT ? 77 : 1);
    }
    caps = kvm_host_caps_read(fd, &err);
    close(fd);
    if (!caps) {
        error_report_err(err);
        exit(1);
    }
    return caps;
}

static int record_host(const char *path)
{
    X86HostCaps *caps = read_live_host();
    Error *err = NULL;

    if (!host_caps_save(caps, path, &err)) {
        error_report_err(err);
        return 1;
    }
    host_caps_free(caps);
    return 0;
}

static GlobalProperty *parse_global(const char *arg)
{
    GlobalProperty *g = g_new0(GlobalProperty, 1);
    const char *eq = strchr(arg, '=');
    const char *dot;

    if (!eq) {
        die("-global %s: Invalid parameter '%s'", arg, arg);
    }
    dot = memchr(arg, '.', eq - arg);
    if (!dot || dot == arg || dot + 1 == eq) {
        die("-global %s: Invalid parameter '%.*s'", arg, (int)(eq - arg), arg);
    }
    g->driver = g_strndup(arg, dot - arg);
    g->property = g_strndup(dot + 1, eq - dot - 1);
    g->value = g_strdup(eq + 1);
    return g;
}

static void add_all_machines(GPtrArray *machines)
{
    GSList *list = machine_class_list_sorted(), *l;

    for (l = list; l; l = l->next) {
        MachineClass *mc = l->data;

        if (mc->family) {
            g_ptr_array_add(machines, g_strdup(mc->name));
        }
    }
    g_slist_free(list);
}

static void parse_args(int argc, char **argv, ToolConfig *cfg)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        char *name = NULL;
        const char *eq;

        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (a[0] != '-') {
            die("%s: unexpected argument", a);
        }
        /* "--opt=value", "--opt value" and QEMU's single dash */
        a += a[1] == '-' ? 2 : 1;
        eq = strchr(a, '=');
        name = eq ? g_strndup(a, eq - a) : g_strdup(a);
        if (!strcmp(name, "features")) {
            cfg->features = true;
            g_free(name);
            continue;
        }
        if (eq) {
            val = eq + 1;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            die("%s: requires an argument", argv[i]);
        }
        if (!strcmp(name, "machine") || !strcmp(name, "M")) {
            if (!strcmp(val, "all")) {
                add_all_machines(cfg->machines);
            } else {
                g_ptr_array_add(cfg->machines, g_strdup(val));
            }
        } else if (!strcmp(name, "cpu")) {
            g_ptr_array_add(cfg->cpus, g_strdup(val));
        } else if (!strcmp(name, "host")) {
            cfg->host_path = val;
        } else if (!strcmp(name, "accel")) {
            cfg->accel = val;
        } else if (!strcmp(name, "kernel-irqchip")) {
            cfg->irqchip = val;
        } else if (!strcmp(name, "outdir")) {
            cfg->outdir = val;
        } else if (!strcmp(name, "global")) {
            g_ptr_array_add(cfg->globals, parse_global(val));
        } else if (!strcmp(name, "smp")) {
            char *end;
            unsigned long n = strtoul(val, &end, 10);

            if (!*val || *end || val[0] == '-' || n == 0 || n > 0x7fffffff) {
                die("Parameter 'smp.cpus' expects integer");
            }
            cfg->smp = n;
        } else if (!strcmp(name, "record-host")) {
            exit(record_host(val));
        } else {
            die("%s: invalid option", argv[eq ? i : i - 1]);
        }
        g_free(name);
    }
}

static KernelIrqchip parse_irqchip(const char *s, MachineClass *mc)
{
    if (!s) {
        return machine_class_default_irqchip(mc);
    } else if (!strcmp(s, "on") || !strcmp(s, "true")) {
        return KERNEL_IRQCHIP_ON;
    } else if (!strcmp(s, "off") || !strcmp(s, "false")) {
        return KERNEL_IRQCHIP_OFF;
    } else if (!strcmp(s, "split")) {
        return KERNEL_IRQCHIP_SPLIT;
    }
    die("Parameter 'kernel-irqchip' does not accept value '%s'", s);
}

static void print_table(GString *out, GArray *table)
{
    guint i;

    for (i = 0; i < table->len; i++) {
        X86CPUIDEntry *e = &g_array_index(table, X86CPUIDEntry, i);

        g_string_append_printf(out,
                               "0x%08x 0x%02x eax=0x%08x ebx=0x%08x "
                               "ecx=0x%08x edx=0x%08x\n",
                               e->function, e->index, e->eax, e->ebx, e->ecx,
                               e->edx);
    }
}

static gint prop_name_cmp(gconstpointer a, gconstpointer b)
{
    const ObjectProperty *pa = *(ObjectProperty *const *)a;
    const ObjectProperty *pb = *(ObjectProperty *const *)b;

    return strcmp(pa->name, pb->name);
}

/* Every readable property with a scalar value, then every named bit */
static void print_features(GString *out, X86CPU *cpu)
{
    static const char *const regs[] = {
        [R_EAX] = "eax", [R_EBX] = "ebx", [R_ECX] = "ecx", [R_EDX] = "edx",
    };
    GPtrArray *props = object_property_list(OBJECT(cpu));
    FeatureWord w;
    guint i;

    g_ptr_array_sort(props, prop_name_cmp);
    for (i = 0; i < props->len; i++) {
        ObjectProperty *p = g_ptr_array_index(props, i);
        JsonNode *n;
        Error *err = NULL;
        FeatureWord fw;
        uint64_t mask;
        char *s;

        /* Feature bits (and their aliases) are listed below, by location */
        if (!p->get || x86_feature_lookup(p->name, &fw, &mask) ||
            !strcmp(p->name, "feature-words") ||
            !strcmp(p->name, "filtered-features") ||
            (i > 0 && !strcmp(p->name, ((ObjectProperty *)
                                        g_ptr_array_index(props, i - 1))->name))) {
            continue;
        }
        n = object_property_get(OBJECT(cpu), p->name, &err);
        if (!n) {
            error_free(err);
            continue;
        }
        s = object_property_value_to_str(n);
        g_string_append_printf(out, "prop %s %s\n", p->name, s);
        g_free(s);
        json_node_unref(n);
    }
    g_ptr_array_unref(props);

    for (w = 0; w < FEATURE_WORDS; w++) {
        const FeatureWordInfo *fi = &feature_word_info[w];
        int bit;

        for (bit = 0; bit < 64; bit++) {
            const char *name = fi->feat_names[bit];
            const char *on = cpu->features[w] & (1ULL << bit) ? "on" : "off";

            if (!name) {
                continue;
            }
            if (fi->type == MSR_FEATURE_WORD) {
                g_string_append_printf(out, "msr 0x%08x %d %s %s\n",
                                       fi->msr.index, bit, name, on);
            } else if (fi->cpuid.needs_ecx) {
                g_string_append_printf(out, "cpuid 0x%08x 0x%02x %s %d %s %s\n",
                                       fi->cpuid.eax, fi->cpuid.ecx,
                                       regs[fi->cpuid.reg], bit, name, on);
            } else {
                g_string_append_printf(out, "cpuid 0x%08x - %s %d %s %s\n",
                                       fi->cpuid.eax, regs[fi->cpuid.reg], bit,
                                       name, on);
            }
        }
    }
}

/* vCPU 0 of machine `mc` with -cpu `cpu_option`; NULL output on error */
static GString *compute(const ToolConfig *cfg, MachineClass *mc,
                        const char *cpu_option, const X86HostCaps *host)
{
    X86Accel accel = host ? X86_ACCEL_KVM : X86_ACCEL_QTEST;
    X86CPUOptions *opts = NULL;
    X86CPUEnv env;
    Error *err = NULL;
    ObjectClass *oc;
    X86CPU *cpu;
    GString *out;
    const char *typename;

    machine_class_init_cpu_env(mc, &env, accel, host,
                               parse_irqchip(cfg->irqchip, mc));
    x86_cpu_set_default_version(mc->default_cpu_version);
    if (cpu_option) {
        opts = x86_cpu_parse_option(cpu_option, &err);
        if (!opts) {
            error_report_err(err);
            return NULL;
        }
        typename = opts->typename;
    } else if (mc->default_cpu_type) {
        typename = mc->default_cpu_type;
    } else {
        error_report("machine type '%s' has no default CPU: give --cpu",
                     mc->name);
        return NULL;
    }
    oc = object_class_by_name(typename);
    if (!oc) {
        error_report("unable to find CPU model '%s'",
                     opts ? opts->model : typename);
        x86_cpu_options_free(opts);
        return NULL;
    }
    cpu = x86_cpu_new(oc, &env, mc->compat_props, cfg->globals, opts, &err);
    x86_cpu_options_free(opts);
    if (!cpu) {
        error_report_err(err);
        return NULL;
    }
    /* Topology of "-smp N", as the machine's -smp rules fill it in */
    cpu->cpu_index = 0;
    cpu->apic_id = 0;
    cpu->nr_dies = 1;
    cpu->nr_threads = 1;
    cpu->nr_cores = mc->smp_prefer_sockets ? 1 : cfg->smp;
    if (!x86_cpu_realize(cpu, &env, &err)) {
        error_report_err(err);
        object_unref(OBJECT(cpu));
        return NULL;
    }
    out = g_string_new(NULL);
    if (cfg->features) {
        print_features(out, cpu);
    } else {
        GArray *table = x86_cpu_build_cpuid_table(cpu, &env);

        print_table(out, table);
        g_array_unref(table);
    }
    object_unref(OBJECT(cpu));
    return out;
}

static void write_file(const char *dir, const char *machine, const char *cpu,
                       const GString *text)
{
    char *mdir = g_build_filename(dir, machine, NULL);
    char *base = g_strconcat(cpu, ".txt", NULL);
    char *path = g_build_filename(mdir, base, NULL);
    GError *gerr = NULL;

    if (strchr(cpu, '/')) {
        die("--outdir: CPU option '%s' cannot be a file name", cpu);
    }
    if (g_mkdir_with_parents(mdir, 0777) < 0) {
        die("%s: %s", mdir, g_strerror(errno));
    }
    if (!g_file_set_contents(path, text->str, text->len, &gerr)) {
        die("%s", gerr->message);
    }
    g_free(path);
    g_free(base);
    g_free(mdir);
}

int main(int argc, char **argv)
{
    ToolConfig cfg = {
        .machines = g_ptr_array_new_with_free_func(g_free),
        .cpus = g_ptr_array_new_with_free_func(g_free),
        .globals = g_ptr_array_new(),
        .smp = 1,
    };
    X86HostCaps *host = NULL;
    bool several;
    int status = 0;
    guint m, c;

    error_set_progname("cpuid-table");
    parse_args(argc, argv, &cfg);
    if (!cfg.machines->len) {
        usage(stderr);
        die("--machine is required");
    }
    if (!cfg.accel) {
        cfg.accel = "kvm";
    }
    if (!strcmp(cfg.accel, "kvm")) {
        Error *err = NULL;

        if (!cfg.host_path) {
            die("--accel kvm needs --host FILE (or --host /dev/kvm)");
        }
        if (!strcmp(cfg.host_path, "/dev/kvm")) {
            host = read_live_host();
        } else if (!(host = host_caps_load(cfg.host_path, &err))) {
            error_report_err(err);
            return 1;
        }
    } else if (!strcmp(cfg.accel, "tcg")) {
        die("TCG is not supported by this build: "
            "this emulator runs guests with KVM only");
    } else if (strcmp(cfg.accel, "qtest")) {
        die("invalid accelerator %s", cfg.accel);
    }
    if (!cfg.cpus->len) {
        g_ptr_array_add(cfg.cpus, NULL);
    }
    several = cfg.machines->len * cfg.cpus->len > 1;

    for (m = 0; m < cfg.machines->len; m++) {
        const char *mname = g_ptr_array_index(cfg.machines, m);
        MachineClass *mc = machine_find_class(mname);

        if (!mc) {
            die("unsupported machine type '%s'", mname);
        }
        if (cfg.smp > (unsigned)mc->max_cpus) {
            die("Invalid SMP CPUs %u. The max CPUs supported by machine "
                "'%s' is %d", cfg.smp, mc->name, mc->max_cpus);
        }
        for (c = 0; c < cfg.cpus->len; c++) {
            const char *cpu = g_ptr_array_index(cfg.cpus, c);
            GString *out = compute(&cfg, mc, cpu, host);

            if (!out) {
                status = 1;
                continue;
            }
            if (cfg.outdir) {
                write_file(cfg.outdir, mc->name,
                           cpu ? cpu : "default", out);
            } else {
                if (several) {
                    printf("# machine %s cpu %s\n", mc->name,
                           cpu ? cpu : "default");
                }
                fputs(out->str, stdout);
            }
            g_string_free(out, TRUE);
        }
    }
    host_caps_free(host);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        die("write error: %s", g_strerror(errno));
    }
    return status;
}
