/*
 * qemu-system-x86_64: everything happens in qemu_main (system/vl.c).
 */
int qemu_main(int argc, char **argv);

int main(int argc, char **argv)
{
    return qemu_main(argc, argv);
}
