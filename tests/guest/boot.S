/*
 * Entry code shared by every test guest.
 *
 * Two ways in, both in 32-bit protected mode with paging off:
 *  - multiboot v1: ELF e_entry (_start), %eax = 0x2BADB002, %ebx = info;
 *  - Xen PVH: the address in the XEN_ELFNOTE_PHYS32_ENTRY note
 *    (pvh_start), %ebx = hvm_start_info.
 * Neither promises a usable GDT or stack, so both load our own.
 */

#define MB_MAGIC 0x1BADB002
#define MB_FLAGS 0x00000003 /* page-aligned modules, memory info */

#define SEL_CODE 0x08
#define SEL_DATA 0x10
#define STACK_SIZE 16384
#define AP_STACK_SIZE 8192
#define MAX_CPUS 64

    .section .multiboot, "a"
    .balign 4
    .long MB_MAGIC
    .long MB_FLAGS
    .long -(MB_MAGIC + MB_FLAGS)

    /* Xen ELF note: name "Xen", type 18 = XEN_ELFNOTE_PHYS32_ENTRY */
    .section .note.Xen, "a"
    .balign 4
    .long 4
    .long 4
    .long 18
    .asciz "Xen"
    .long pvh_start

    .text
    .code32
    .globl _start
_start:
    cli
    movl $1, %esi           /* BOOT_MULTIBOOT */
    movl %eax, %edi
    jmp common_entry

    .globl pvh_start
pvh_start:
    cli
    movl $2, %esi           /* BOOT_PVH */
    movl %eax, %edi

common_entry:
    lgdt gdt_desc
    ljmp $SEL_CODE, $1f
1:  movw $SEL_DATA, %ax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %ss
    movw %ax, %fs
    movw %ax, %gs
    movl $boot_stack_top, %esp
    xorl %ebp, %ebp
    cld
    pushl $0
    popfl
    pushl %ebx
    pushl %edi
    pushl %esi
    call boot_main          /* (kind, eax, ebx); does not return */
2:  cli
    hlt
    jmp 2b

/* ---- APs: 32-bit side of the trampoline ---- */
    .globl ap_entry32
ap_entry32:
    movw $SEL_DATA, %ax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %ss
    movw %ax, %fs
    movw %ax, %gs
    movl $1, %eax
    lock xaddl %eax, ap_slot    /* slot 1.. for the first AP to arrive */
    cmpl $MAX_CPUS, %eax
    jae 3f
    movl %eax, %ecx
    incl %ecx
    imull $AP_STACK_SIZE, %ecx
    leal ap_stacks(%ecx), %esp
    xorl %ebp, %ebp
    cld
    pushl $0
    popfl
    call ap_main            /* does not return */
3:  cli
    hlt
    jmp 3b

/* ---- real-mode trampoline, copied to AP_TRAMPOLINE_ADDR (0x8000) ---- */
    .section .rodata
    .globl ap_tramp_start, ap_tramp_end
    .code16
ap_tramp_start:
    cli
    movw %cs, %ax
    movw %ax, %ds
    lgdtl (ap_tramp_gdtr - ap_tramp_start)
    movl %cr0, %eax
    orl $1, %eax
    movl %eax, %cr0
    ljmpl $SEL_CODE, $ap_entry32
    .balign 4
ap_tramp_gdtr:
    .word gdt_end - gdt - 1
    .long gdt
ap_tramp_end:
    .code32

/* ---- MSR accessors that survive #GP (see ex_table) ---- */
    .text
    .globl wrmsr_safe
wrmsr_safe:                 /* int wrmsr_safe(u32 msr, u32 lo, u32 hi) */
    movl 4(%esp), %ecx
    movl 8(%esp), %eax
    movl 12(%esp), %edx
.Lwrmsr_insn:
    wrmsr
    xorl %eax, %eax
    ret
.Lwrmsr_fixup:
    movl $1, %eax
    ret

    .globl rdmsr_safe
rdmsr_safe:                 /* int rdmsr_safe(u32 msr, u64 *val) */
    movl 4(%esp), %ecx
.Lrdmsr_insn:
    rdmsr
    movl 8(%esp), %ecx
    movl %eax, (%ecx)
    movl %edx, 4(%ecx)
    xorl %eax, %eax
    ret
.Lrdmsr_fixup:
    movl $1, %eax
    ret

    .section .ex_table, "a"
    .balign 4
    .long .Lwrmsr_insn, .Lwrmsr_fixup
    .long .Lrdmsr_insn, .Lrdmsr_fixup

/* ---- exception stubs for vectors 0-31 ---- */
    .text
.macro EXC_NOERR vec
exc_\vec:
    pushl $0
    pushl $\vec
    jmp exc_common
.endm
.macro EXC_ERR vec
exc_\vec:
    pushl $\vec
    jmp exc_common
.endm

    EXC_NOERR 0
    EXC_NOERR 1
    EXC_NOERR 2
    EXC_NOERR 3
    EXC_NOERR 4
    EXC_NOERR 5
    EXC_NOERR 6
    EXC_NOERR 7
    EXC_ERR 8
    EXC_NOERR 9
    EXC_ERR 10
    EXC_ERR 11
    EXC_ERR 12
    EXC_ERR 13
    EXC_ERR 14
    EXC_NOERR 15
    EXC_NOERR 16
    EXC_ERR 17
    EXC_NOERR 18
    EXC_NOERR 19
    EXC_NOERR 20
    EXC_ERR 21
    EXC_NOERR 22
    EXC_NOERR 23
    EXC_NOERR 24
    EXC_NOERR 25
    EXC_NOERR 26
    EXC_NOERR 27
    EXC_NOERR 28
    EXC_ERR 29
    EXC_ERR 30
    EXC_NOERR 31

exc_common:
    pushal
    pushl %esp
    call exception_handler  /* (struct exc_frame *); may edit eip */
    addl $4, %esp
    popal
    addl $8, %esp           /* vector and error code */
    /*
     * Same-privilege return without iret, which PVM's instruction
     * emulation lacks: restore EFLAGS, then a near return that also drops
     * CS and EFLAGS (CS is always our flat code segment).
     */
    pushl 8(%esp)
    popfl
    ret $8

    .section .rodata
    .globl exc_stubs
    .balign 4
exc_stubs:
    .irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    .long exc_\v
    .endr

/* ---- GDT: null, flat 32-bit code (0x08), flat data (0x10) ---- */
    .balign 8
    .globl gdt
gdt:
    .quad 0
    .quad 0x00CF9B000000FFFF
    .quad 0x00CF93000000FFFF
gdt_end:
gdt_desc:
    .word gdt_end - gdt - 1
    .long gdt

    .data
    .balign 4
    .globl ap_slot
ap_slot:
    .long 1

    .bss
    .balign 16
boot_stack:
    .skip STACK_SIZE
boot_stack_top:
    .globl ap_stacks
    .balign 16
ap_stacks:
    .skip AP_STACK_SIZE * MAX_CPUS
