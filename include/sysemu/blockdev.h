/*
 * The block layer's command line and QMP glue (blockdev.c): -drive,
 * -blockdev, blockdev-add, blockdev-del, block_resize, and the drives a
 * board or a device picks up (drive_get).
 */
#ifndef SYSEMU_BLOCKDEV_H
#define SYSEMU_BLOCKDEV_H

#include "sysemu/block-backend.h"

/* -drive if=, QEMU's names and order */
typedef enum BlockInterfaceType {
    IF_NONE, IF_IDE, IF_SCSI, IF_FLOPPY, IF_PFLASH, IF_MTD, IF_SD,
    IF_VIRTIO, IF_XEN, IF_COUNT,
} BlockInterfaceType;

typedef struct DriveInfo {
    BlockInterfaceType type;
    int bus, unit;
    bool media_cd;
    BlockBackend *blk;
} DriveInfo;

/*
 * -drive and -blockdev (system/vl.c's option table calls these): kept,
 * in order, until blockdev_create_all()
 */
void blockdev_drive_option(const char *opt, const char *arg);
void blockdev_blockdev_option(const char *opt, const char *arg);
/*
 * Opens every -blockdev, then every -drive, in command line order, once
 * the machine type is known (its default if=: ide for PCs, none for
 * -machine none).  Errors carry the option ("-drive ARG: ...").
 */
bool blockdev_create_all(const char *machine_type, Error **errp);

/*
 * A device model that creates devices for -drive if=TYPE registers here
 * (before start-up) and then finds its drives with drive_get().  Until one
 * does, such -drive lines are refused, naming the device they need.
 */
void drive_register_interface(BlockInterfaceType type);
DriveInfo *drive_get(BlockInterfaceType type, int bus, int unit);
DriveInfo *drive_get_by_blk(BlockBackend *blk);

#endif
