/*
 * Fd sets and named fds (include/monitor/fds.h): -add-fd, and the QMP
 * commands add-fd, remove-fd, query-fdsets, getfd and closefd.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/fds.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qemu/option.h"
#include "sysemu/runstate.h"

typedef struct FdsetFd {
    int fd;
    bool removed;
    char *opaque;
} FdsetFd;

typedef struct Fdset {
    int64_t id;
    GPtrArray *fds;     /* FdsetFd*, in the order they came */
    GArray *dups;       /* int: fds dup'ed from the set and still open */
} Fdset;

static GList *fdsets;   /* Fdset*, by ascending id */
static int qmp_clients; /* connected QMP clients */
static GArray *cli_fds; /* the fds -add-fd named, closed once all are read */

static Fdset *fdset_find(int64_t id)
{
    GList *l;

    for (l = fdsets; l; l = l->next) {
        Fdset *s = l->data;
        if (s->id == id) {
            return s;
        }
    }
    return NULL;
}

static gint fdset_cmp(gconstpointer a, gconstpointer b)
{
    const Fdset *x = a, *y = b;

    return x->id < y->id ? -1 : x->id > y->id;
}

static void fdset_fd_free(gpointer p)
{
    FdsetFd *f = p;

    close(f->fd);
    g_free(f->opaque);
    g_free(f);
}

/* The lowest id no set has (QEMU 7.2's choice when add-fd names none) */
static int64_t fdset_free_id(void)
{
    int64_t id = 0;
    GList *l;

    for (l = fdsets; l; l = l->next) {
        Fdset *s = l->data;
        if (s->id != id) {
            break;
        }
        id++;
    }
    return id;
}

/* Takes fd; returns the set's id */
static int64_t fdset_add(int fd, bool has_id, int64_t id, const char *opaque)
{
    Fdset *s = has_id ? fdset_find(id) : NULL;
    FdsetFd *f;

    if (!s) {
        s = g_new0(Fdset, 1);
        s->id = has_id ? id : fdset_free_id();
        s->fds = g_ptr_array_new_with_free_func(fdset_fd_free);
        s->dups = g_array_new(FALSE, FALSE, sizeof(int));
        fdsets = g_list_insert_sorted(fdsets, s, fdset_cmp);
    }
    f = g_new0(FdsetFd, 1);
    f->fd = fd;
    f->opaque = g_strdup(opaque);
    g_ptr_array_add(s->fds, f);
    return s->id;
}

/*
 * QEMU 7.2's rule: nothing is closed while the VM is not running; then a
 * removed fd is, and so is every fd of a set without dups once no QMP
 * client is connected.  A set left with neither fds nor dups goes.
 */
static void fdset_cleanup(Fdset *s)
{
    guint i = 0;

    while (i < s->fds->len) {
        FdsetFd *f = g_ptr_array_index(s->fds, i);

        if ((f->removed || (!s->dups->len && !qmp_clients)) &&
            runstate_is_running()) {
            g_ptr_array_remove_index(s->fds, i);
        } else {
            i++;
        }
    }
    if (!s->fds->len && !s->dups->len) {
        fdsets = g_list_remove(fdsets, s);
        g_ptr_array_free(s->fds, TRUE);
        g_array_free(s->dups, TRUE);
        g_free(s);
    }
}

static void fdset_cleanup_all(void)
{
    GList *l = fdsets;

    while (l) {
        GList *next = l->next;
        fdset_cleanup(l->data);
        l = next;
    }
}

void fdset_monitor_opened(void)
{
    qmp_clients++;
}

void fdset_monitor_closed(void)
{
    qmp_clients--;
    fdset_cleanup_all();
}

int fdset_dup_fd(int64_t id, int flags)
{
    Fdset *s = fdset_find(id);
    int src = -1, fd;
    guint i;

    if (!s) {
        errno = ENOENT;
        return -1;
    }
    for (i = 0; i < s->fds->len && src < 0; i++) {
        FdsetFd *f = g_ptr_array_index(s->fds, i);
        int fl = fcntl(f->fd, F_GETFL);

        if (fl < 0) {
            return -1;
        }
        if ((fl & O_ACCMODE) == (flags & O_ACCMODE)) {
            src = f->fd;
        }
    }
    if (src < 0) {
        errno = EACCES;
        return -1;
    }
    fd = fcntl(src, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    /* What open() would have done with these flags, as far as it can be */
    if (fcntl(fd, F_SETFL, flags) < 0 ||
        (((flags & O_TRUNC) ||
          (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) &&
         ftruncate(fd, 0) < 0)) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    g_array_append_val(s->dups, fd);
    return fd;
}

void fdset_dup_closed(int fd)
{
    GList *l;
    guint i;

    for (l = fdsets; l; l = l->next) {
        Fdset *s = l->data;

        for (i = 0; i < s->dups->len; i++) {
            if (g_array_index(s->dups, int, i) == fd) {
                g_array_remove_index(s->dups, i);
                fdset_cleanup(s);
                return;
            }
        }
    }
}

/* -add-fd ------------------------------------------------------------------ */

bool fdset_cli_add(const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, NULL, errp);
    uint64_t fdnum, setnum;
    int64_t set;
    const char *opaque;
    int fd, flags, dupfd;
    bool ok = false;

    if (!opts) {
        return false;
    }
    /* As QEMU: the numbers are cast, so fd=-1 is a negative fd */
    if (!qemu_opt_get_number(opts, "fd", UINT64_MAX, &fdnum, errp) ||
        !qemu_opt_get_number(opts, "set", UINT64_MAX, &setnum, errp)) {
        goto out;
    }
    fd = (int)fdnum;
    set = (int64_t)setnum;
    opaque = qemu_opt_get(opts, "opaque");
    flags = fd >= 0 ? fcntl(fd, F_GETFD) : -1;
    if (fd < 0) {
        error_setg(errp, "fd option is required and must be non-negative");
    } else if (fd <= STDERR_FILENO) {
        error_setg(errp, "fd cannot be a standard I/O stream");
    } else if (flags < 0 || (flags & FD_CLOEXEC)) {
        /* close-on-exec: one of ours, not one passed in */
        error_setg(errp, "fd is not valid or already in use");
    } else if (set < 0) {
        error_setg(errp, "set option is required and must be non-negative");
    } else if ((dupfd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
        error_setg_errno(errp, errno, "Error duplicating fd");
    } else {
        fdset_add(dupfd, true, set, opaque);
        if (!cli_fds) {
            cli_fds = g_array_new(FALSE, FALSE, sizeof(int));
        }
        g_array_append_val(cli_fds, fd);
        ok = true;
    }
out:
    qemu_opts_free(opts);
    return ok;
}

void fdset_cli_done(void)
{
    guint i, j;

    for (i = 0; cli_fds && i < cli_fds->len; i++) {
        int fd = g_array_index(cli_fds, int, i);
        bool seen = false;

        /* the same fd may have been named twice */
        for (j = 0; j < i; j++) {
            seen |= g_array_index(cli_fds, int, j) == fd;
        }
        if (!seen) {
            close(fd);
        }
    }
    if (cli_fds) {
        g_array_free(cli_fds, TRUE);
        cli_fds = NULL;
    }
}

/* QMP ---------------------------------------------------------------------- */

JsonNode *qmp_add_fd(const QmpArgsAddFd *args, Error **errp)
{
    int fd = monitor_cur_take_msgfd();
    JsonObject *o;
    int64_t id;

    if (fd < 0) {
        error_setg(errp, "No file descriptor supplied via SCM_RIGHTS");
        return NULL;
    }
    if (args->has_fdset_id && args->fdset_id < 0) {
        close(fd);
        error_setg(errp, "Parameter 'fdset-id' expects a non-negative value");
        return NULL;
    }
    id = fdset_add(fd, args->has_fdset_id, args->fdset_id,
                   args->has_opaque ? args->opaque : NULL);
    o = json_object_new();
    json_object_set_int_member(o, "fd", fd);
    json_object_set_int_member(o, "fdset-id", id);
    return json_node_init_object(json_node_alloc(), o);
}

JsonNode *qmp_remove_fd(const QmpArgsRemoveFd *args, Error **errp)
{
    Fdset *s = fdset_find(args->fdset_id);
    bool found = false;
    guint i;

    for (i = 0; s && i < s->fds->len; i++) {
        FdsetFd *f = g_ptr_array_index(s->fds, i);

        if (!args->has_fd || f->fd == args->fd) {
            f->removed = true;
            found = true;
        }
    }
    if (!s || (args->has_fd && !found)) {
        if (args->has_fd) {
            error_setg(errp, "File descriptor named 'fdset-id:%" PRId64
                       ", fd:%" PRId64 "' not found", args->fdset_id,
                       args->fd);
        } else {
            error_setg(errp, "File descriptor named 'fdset-id:%" PRId64
                       "' not found", args->fdset_id);
        }
        return NULL;
    }
    fdset_cleanup(s);
    return qmp_empty_return();
}

JsonNode *qmp_query_fdsets(Error **errp)
{
    JsonArray *arr = json_array_new();
    GList *l;
    guint i;

    /* QEMU 7.2 lists the newest id first */
    for (l = g_list_last(fdsets); l; l = l->prev) {
        Fdset *s = l->data;
        JsonObject *o = json_object_new();
        JsonArray *fds = json_array_new();

        for (i = 0; i < s->fds->len; i++) {
            FdsetFd *f = g_ptr_array_index(s->fds, i);
            JsonObject *fo = json_object_new();

            json_object_set_int_member(fo, "fd", f->fd);
            if (f->opaque) {
                json_object_set_string_member(fo, "opaque", f->opaque);
            }
            json_array_add_object_element(fds, fo);
        }
        json_object_set_array_member(o, "fds", fds);
        json_object_set_int_member(o, "fdset-id", s->id);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

JsonNode *qmp_getfd(const QmpArgsGetfd *args, Error **errp)
{
    GHashTable *named = monitor_cur_named_fds();
    int fd = monitor_cur_take_msgfd();

    if (fd < 0) {
        error_setg(errp, "No file descriptor supplied via SCM_RIGHTS");
        return NULL;
    }
    if (g_ascii_isdigit(args->fdname[0])) {
        close(fd);
        error_setg(errp, "Parameter 'fdname' expects a name not starting "
                   "with a digit");
        return NULL;
    }
    /* a later getfd of a name replaces (and closes) the earlier fd */
    g_hash_table_replace(named, g_strdup(args->fdname), GINT_TO_POINTER(fd));
    return qmp_empty_return();
}

JsonNode *qmp_closefd(const QmpArgsClosefd *args, Error **errp)
{
    GHashTable *named = monitor_cur_named_fds();

    if (!named || !g_hash_table_remove(named, args->fdname)) {
        error_setg(errp, "File descriptor named '%s' not found",
                   args->fdname);
        return NULL;
    }
    return qmp_empty_return();
}

int monitor_fd_param(const char *name, Error **errp)
{
    GHashTable *named = monitor_cur_named_fds();
    gpointer key, value;
    char *end;
    long v;

    if (!g_ascii_isdigit(name[0]) && named) {
        if (!g_hash_table_steal_extended(named, name, &key, &value)) {
            error_setg(errp, "File descriptor named '%s' has not been found",
                       name);
            return -1;
        }
        g_free(key);
        return GPOINTER_TO_INT(value);
    }
    errno = 0;
    v = strtol(name, &end, 10);
    if (end == name || *end || errno || v < 0 || v > INT_MAX) {
        error_setg(errp, "Invalid file descriptor number '%s'", name);
        return -1;
    }
    return v;
}
