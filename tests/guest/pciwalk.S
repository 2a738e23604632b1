/*
 * pciwalk: a 64 KiB firmware image (-bios) that prints the configuration
 * space of every function on PCI bus 0 to COM1, as the board leaves it at
 * reset: no firmware runs before it, under this tree or under QEMU 7.2.
 *
 * It runs in real mode from the reset vector, reads each function's 256
 * bytes through CONFIG_ADDRESS/CONFIG_DATA (0xCF8/0xCFC) one dword at a
 * time, and prints
 *     PCI 00:DD.F
 *       00: xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx
 *       ...
 * per function that answers (vendor ID not 0xFFFF), then PCIWALK-END, and
 * halts.  Used by tests/functional/test_board_views_vs_qemu72.py.
 */
    .code16
    .section .text
start:
    cli
    cld
    xorw    %ax, %ax
    movw    %ax, %ss
    movw    $0x7000, %sp
    /* the image's last 64 KiB show at 0xF0000 at reset (PAM: to PCI) */
    movw    $0xf000, %ax
    movw    %ax, %ds

    movl    $0, %ebx                /* devfn << 8 */
next_function:
    movl    %ebx, %eax
    call    cfg_read
    cmpw    $0xffff, %ax
    je      skip
    movw    $msg_pci, %si
    call    puts
    movb    %bh, %al
    shrb    $3, %al
    call    hex8
    movb    $'.', %al
    call    putc
    movb    %bh, %al
    andb    $7, %al
    addb    $'0', %al
    call    putc
    xorl    %edi, %edi              /* register */
next_register:
    testw   $0xf, %di
    jnz     same_line
    movw    $msg_indent, %si
    call    puts
    movw    %di, %ax
    call    hex8
    movb    $':', %al
    call    putc
same_line:
    movb    $' ', %al
    call    putc
    movl    %ebx, %eax
    orl     %edi, %eax
    call    cfg_read
    call    hex32
    addl    $4, %edi
    cmpl    $0x100, %edi
    jb      next_register
    movw    $msg_nl, %si
    call    puts
skip:
    addl    $0x100, %ebx
    cmpl    $0x10000, %ebx
    jb      next_function
    movw    $msg_end, %si
    call    puts
halt:
    cli
    hlt
    jmp     halt

/* eax = devfn << 8 | register -> eax = that dword of bus 0 */
cfg_read:
    orl     $0x80000000, %eax
    movw    $0xcf8, %dx
    outl    %eax, %dx
    movw    $0xcfc, %dx
    inl     %dx, %eax
    ret

/* al -> COM1, once the transmitter holds nothing */
putc:
    pushw   %ax
1:  movw    $0x3fd, %dx
    inb     %dx, %al
    testb   $0x20, %al
    jz      1b
    popw    %ax
    movw    $0x3f8, %dx
    outb    %al, %dx
    ret

/* ds:si, NUL-terminated */
puts:
    lodsb
    testb   %al, %al
    jz      2f
    call    putc
    jmp     puts
2:  ret

hex4:
    andb    $0xf, %al
    addb    $'0', %al
    cmpb    $'9', %al
    jbe     3f
    addb    $('a' - '0' - 10), %al
3:  jmp     putc

hex8:
    pushw   %ax
    shrb    $4, %al
    call    hex4
    popw    %ax
    jmp     hex4

hex32:
    movw    $4, %cx
4:  roll    $8, %eax
    pushl   %eax
    pushw   %cx
    call    hex8
    popw    %cx
    popl    %eax
    loop    4b
    ret

msg_pci:    .asciz "PCI 00:"
msg_indent: .asciz "\r\n  "
msg_nl:     .asciz "\r\n"
msg_end:    .asciz "PCIWALK-END\r\n"

    /* the reset vector: 16 bytes below 4 GiB, the image's last 16 */
    .section .reset, "ax"
    jmp     start
    .balign 16, 0xf4
