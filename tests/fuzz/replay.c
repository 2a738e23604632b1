/*
 * Replays fuzz corpora through a libFuzzer target without libFuzzer.
 *
 * Every target under tests/fuzz/ is linked twice: with clang's
 * -fsanitize=fuzzer when configure --enable-fuzzing asked for it (the real
 * fuzzer, scripts/fuzz.sh), and always with this driver, so that `make
 * check` runs every input of the committed corpora through the target with
 * whatever compiler and sanitizers the build uses (gcc, ASan/UBSan in CI).
 *
 *   fuzz-NAME-replay FILE|DIR...
 *
 * Each FILE (and each regular file inside each DIR, in name order) is one
 * input.  Prints a TAP line per input; a crash is the sanitizer's report
 * and a non-zero status.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_count;

static int replay_file(const char *path)
{
    gchar *data;
    gsize len;
    GError *err = NULL;
    uint8_t *copy;

    if (!g_file_get_contents(path, &data, &len, &err)) {
        printf("not ok %d - %s: %s\n", ++replay_count, path, err->message);
        g_error_free(err);
        return 1;
    }
    /* An exact-size heap copy, so that ASan sees reads past the input */
    copy = malloc(len ? len : 1);
    memcpy(copy, data, len);
    g_free(data);
    LLVMFuzzerTestOneInput(copy, len);
    free(copy);
    printf("ok %d - %s\n", ++replay_count, path);
    fflush(stdout);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *path)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    DIR *d = opendir(path);
    struct dirent *e;
    int failed = 0;
    guint i;

    if (!d) {
        printf("not ok %d - %s: cannot open\n", ++replay_count, path);
        return 1;
    }
    while ((e = readdir(d))) {
        if (e->d_name[0] != '.') {
            g_ptr_array_add(names, g_build_filename(path, e->d_name, NULL));
        }
    }
    closedir(d);
    qsort(names->pdata, names->len, sizeof(char *), compare_names);
    for (i = 0; i < names->len; i++) {
        const char *p = g_ptr_array_index(names, i);
        struct stat st;

        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            failed |= replay_file(p);
        }
    }
    g_ptr_array_free(names, TRUE);
    return failed;
}

int main(int argc, char **argv)
{
    int failed = 0;
    int i;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize) {
        LLVMFuzzerInitialize(&argc, &argv);
    }
    for (i = 1; i < argc; i++) {
        struct stat st;

        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            failed |= replay_dir(argv[i]);
        } else {
            failed |= replay_file(argv[i]);
        }
    }
    if (!replay_count) {
        printf("not ok 1 - no inputs\n");
        failed = 1;
        replay_count = 1;
    }
    printf("1..%d\n", replay_count);
    return failed;
}
