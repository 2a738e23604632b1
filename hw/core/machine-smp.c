/*
 * -smp: QEMU 7.2's topology parsing, missing values computed as it does
 * for the machine type, and its error texts.
 *
 * The keys are read as 64-bit integers (any base) and used as 32-bit
 * unsigned values, wrapping as QEMU's do: "-smp 2,sockets=-1" reports
 * 4294967295 sockets.  0 means "not given" (and is deprecated).  Where
 * QEMU 7.2 divides by a product that wrapped to 0 (and dies of SIGFPE),
 * the quotient here is 0, which the topology check then refuses.
 */
#include <stddef.h>
#include <string.h>

#include "hw/boards.h"
#include "qemu/option.h"

typedef struct SmpValues {
    unsigned cpus, sockets, dies, clusters, cores, threads, maxcpus;
} SmpValues;

typedef struct SmpKey {
    const char *name;
    size_t offset;          /* in SmpValues */
    bool zero_deprecated;   /* a 0 warns (not dies and clusters) */
} SmpKey;

/* In the order QEMU's visitor reads them */
static const SmpKey smp_keys[] = {
    { "cpus", offsetof(SmpValues, cpus), true },
    { "sockets", offsetof(SmpValues, sockets), true },
    { "dies", offsetof(SmpValues, dies), false },
    { "clusters", offsetof(SmpValues, clusters), false },
    { "cores", offsetof(SmpValues, cores), true },
    { "threads", offsetof(SmpValues, threads), true },
    { "maxcpus", offsetof(SmpValues, maxcpus), true },
};

static bool smp_read(QemuOpts *opts, SmpValues *v, Error **errp)
{
    const char *names[G_N_ELEMENTS(smp_keys) + 1] = { NULL };
    bool zero = false;
    size_t i;

    memset(v, 0, sizeof(*v));
    if (!opts) {
        return true;
    }
    for (i = 0; i < G_N_ELEMENTS(smp_keys); i++) {
        int64_t n;
        bool present;

        names[i] = smp_keys[i].name;
        if (!keyval_get_int(opts, "smp.", smp_keys[i].name, &n, &present,
                            errp)) {
            return false;
        }
        if (present) {
            zero |= smp_keys[i].zero_deprecated && n == 0;
            *(unsigned *)((char *)v + smp_keys[i].offset) = (unsigned)n;
        }
    }
    if (!keyval_check_unexpected(opts, "smp.", names, errp)) {
        return false;
    }
    if (zero) {
        warn_report("Deprecated CPU topology (considered invalid): CPU "
                    "topology parameters must be greater than zero");
    }
    return true;
}

static unsigned div_or_zero(unsigned a, unsigned b)
{
    return b ? a / b : 0;
}

static unsigned or_one(unsigned v)
{
    return v ? v : 1;
}

bool machine_parse_smp(MachineState *ms, MachineClass *mc, QemuOpts *opts,
                       Error **errp)
{
    SMPConfiguration *s = &ms->smp;
    SmpValues v;
    unsigned product;

    if (!smp_read(opts, &v, errp)) {
        return false;
    }
    if (v.clusters > 1) {
        error_setg(errp, "clusters not supported by this machine's CPU "
                   "topology");
        return false;
    }
    v.dies = or_one(v.dies);
    v.clusters = or_one(v.clusters);
    /*
     * Missing values, as QEMU 7.2 computes them: without cpus and maxcpus
     * each is 1; otherwise up to 6.1 the rest goes to sockets, from 6.2 to
     * cores, the other one defaulting to 1; threads come last.
     */
    if (!v.cpus && !v.maxcpus) {
        v.sockets = or_one(v.sockets);
        v.cores = or_one(v.cores);
        v.threads = or_one(v.threads);
    } else {
        v.maxcpus = v.maxcpus ? v.maxcpus : v.cpus;
        if (mc->smp_prefer_sockets && !v.sockets) {
            v.cores = or_one(v.cores);
            v.threads = or_one(v.threads);
            v.sockets = div_or_zero(v.maxcpus, v.dies * v.clusters *
                                               v.cores * v.threads);
        } else if (!v.cores) {
            v.sockets = or_one(v.sockets);
            v.threads = or_one(v.threads);
            v.cores = div_or_zero(v.maxcpus, v.sockets * v.dies *
                                             v.clusters * v.threads);
        } else if (!v.sockets) {
            v.threads = or_one(v.threads);
            v.sockets = div_or_zero(v.maxcpus, v.dies * v.clusters *
                                               v.cores * v.threads);
        }
        if (!v.threads) {
            v.threads = div_or_zero(v.maxcpus, v.sockets * v.dies *
                                               v.clusters * v.cores);
        }
    }
    product = v.sockets * v.dies * v.clusters * v.cores * v.threads;
    v.maxcpus = v.maxcpus ? v.maxcpus : product;
    v.cpus = v.cpus ? v.cpus : v.maxcpus;
    if (product != v.maxcpus) {
        error_setg(errp, "Invalid CPU topology: product of the hierarchy "
                   "must match maxcpus: sockets (%u) * dies (%u) * cores "
                   "(%u) * threads (%u) != maxcpus (%u)", v.sockets, v.dies,
                   v.cores, v.threads, v.maxcpus);
        return false;
    }
    if (v.maxcpus < v.cpus) {
        error_setg(errp, "Invalid CPU topology: maxcpus must be equal to or "
                   "greater than smp: sockets (%u) * dies (%u) * cores (%u) "
                   "* threads (%u) == maxcpus (%u) < smp_cpus (%u)",
                   v.sockets, v.dies, v.cores, v.threads, v.maxcpus, v.cpus);
        return false;
    }
    if (v.cpus < 1) {
        error_setg(errp, "Invalid SMP CPUs %d. The min CPUs supported by "
                   "machine '%s' is 1", (int)v.cpus, mc->name);
        return false;
    }
    if (v.cpus > (unsigned)mc->max_cpus || v.maxcpus > (unsigned)mc->max_cpus) {
        error_setg(errp, "Invalid SMP CPUs %d. The max CPUs supported by "
                   "machine '%s' is %d",
                   (int)(v.cpus > (unsigned)mc->max_cpus ? v.cpus : v.maxcpus),
                   mc->name, mc->max_cpus);
        return false;
    }
    s->cpus = v.cpus;
    s->sockets = v.sockets;
    s->dies = v.dies;
    s->cores = v.cores;
    s->threads = v.threads;
    s->max_cpus = v.maxcpus;
    return true;
}
