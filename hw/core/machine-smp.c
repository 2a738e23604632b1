/*
 * -smp: QEMU 7.2's topology parsing, missing values computed as it does
 * for the machine type, and its error texts.
 */
#include <errno.h>
#include <stdlib.h>

#include "hw/boards.h"
#include "qemu/option.h"

static bool smp_get(QemuOpts *opts, const char *name, unsigned *out,
                    Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    char *end;
    unsigned long n;

    *out = 0;
    if (!v) {
        return true;
    }
    errno = 0;
    n = strtoul(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-' || n > 0x7fffffff) {
        error_setg(errp, "Parameter 'smp.%s' expects integer", name);
        return false;
    }
    if (n == 0) {
        warn_report("Deprecated CPU topology (considered invalid): CPU "
                    "topology parameters must be greater than zero");
    }
    *out = n;
    return true;
}

bool machine_parse_smp(MachineState *ms, MachineClass *mc,
                       const char *optarg, Error **errp)
{
    SMPConfiguration *s = &ms->smp;
    QemuOpts *opts = NULL;
    unsigned product;

    if (optarg) {
        opts = qemu_opts_parse(optarg, "cpus", errp);
        if (!opts) {
            error_prepend(errp, "-smp: ");
            return false;
        }
        for (guint i = 0; i < opts->opts->len; i++) {
            static const char *const keys[] = {
                "cpus", "sockets", "dies", "clusters", "cores", "threads",
                "maxcpus", NULL,
            };
            QemuOpt *o = g_ptr_array_index(opts->opts, i);

            if (!g_strv_contains(keys, o->name)) {
                error_setg(errp, "Parameter 'smp.%s' is unexpected", o->name);
                qemu_opts_free(opts);
                return false;
            }
        }
        if (!smp_get(opts, "cpus", &s->cpus, errp) ||
            !smp_get(opts, "sockets", &s->sockets, errp) ||
            !smp_get(opts, "dies", &s->dies, errp) ||
            !smp_get(opts, "cores", &s->cores, errp) ||
            !smp_get(opts, "threads", &s->threads, errp) ||
            !smp_get(opts, "maxcpus", &s->max_cpus, errp)) {
            qemu_opts_free(opts);
            return false;
        }
        qemu_opts_free(opts);
    }
    s->dies = s->dies ? s->dies : 1;
    if (!s->cpus && !s->sockets && !s->cores && !s->threads && !s->max_cpus) {
        s->cpus = 1;
    }
    /*
     * Missing values, as QEMU 7.2 computes them: up to 6.1 the rest goes to
     * sockets, from 6.2 to cores; the other one defaults to 1 (or what is
     * left when the preferred one was given); threads come last.
     */
    s->max_cpus = s->max_cpus ? s->max_cpus : s->cpus;
    if (mc->smp_prefer_sockets) {
        if (!s->sockets) {
            s->cores = s->cores ? s->cores : 1;
            s->threads = s->threads ? s->threads : 1;
            s->sockets = s->max_cpus / (s->dies * s->cores * s->threads);
        } else if (!s->cores) {
            s->threads = s->threads ? s->threads : 1;
            s->cores = s->max_cpus / (s->sockets * s->dies * s->threads);
        }
    } else {
        if (!s->cores) {
            s->sockets = s->sockets ? s->sockets : 1;
            s->threads = s->threads ? s->threads : 1;
            s->cores = s->max_cpus / (s->sockets * s->dies * s->threads);
        } else if (!s->sockets) {
            s->threads = s->threads ? s->threads : 1;
            s->sockets = s->max_cpus / (s->dies * s->cores * s->threads);
        }
    }
    if (!s->threads) {
        s->threads = s->max_cpus ? s->max_cpus / (s->sockets * s->dies *
                                                  s->cores)
                                 : 1;
    }
    s->sockets = MAX(s->sockets, 1);
    s->cores = MAX(s->cores, 1);
    s->threads = MAX(s->threads, 1);
    product = s->sockets * s->dies * s->cores * s->threads;
    s->max_cpus = s->max_cpus ? s->max_cpus : product;
    s->cpus = s->cpus ? s->cpus : s->max_cpus;
    if (product != s->max_cpus) {
        error_setg(errp, "Invalid CPU topology: product of the hierarchy "
                   "must match maxcpus: sockets (%u) * dies (%u) * cores "
                   "(%u) * threads (%u) != maxcpus (%u)", s->sockets, s->dies,
                   s->cores, s->threads, s->max_cpus);
        return false;
    }
    if (s->max_cpus < s->cpus) {
        error_setg(errp, "Invalid CPU topology: maxcpus must be equal to or "
                   "greater than smp: sockets (%u) * dies (%u) * cores (%u) "
                   "* threads (%u) == maxcpus (%u) < smp_cpus (%u)",
                   s->sockets, s->dies, s->cores, s->threads, s->max_cpus,
                   s->cpus);
        return false;
    }
    if (s->cpus > (unsigned)mc->max_cpus) {
        error_setg(errp, "Invalid SMP CPUs %u. The max CPUs supported by "
                   "machine '%s' is %d", s->cpus, mc->name, mc->max_cpus);
        return false;
    }
    if (s->max_cpus > (unsigned)mc->max_cpus) {
        error_setg(errp, "Invalid SMP CPUs %u. The max CPUs supported by "
                   "machine '%s' is %d", s->max_cpus, mc->name, mc->max_cpus);
        return false;
    }
    return true;
}
