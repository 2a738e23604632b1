/*
 * The firmware search path: -L directories in the order given, then the
 * directories Debian's QEMU 7.2 searches (system/datadir.c)
 */
#ifndef QEMU_DATADIR_H
#define QEMU_DATADIR_H

/* -L DIR ("help": prints the search path and exits) */
void qemu_add_data_dir(const char *dir);
void qemu_list_data_dirs(void);
/*
 * A firmware file: NAME itself when it can be read, else the first
 * DIR/NAME on the path; NULL when none (g_free the result)
 */
char *qemu_find_file(const char *name);

/* -bios FILE, NULL when not given */
extern char *qemu_bios_name;

#endif
