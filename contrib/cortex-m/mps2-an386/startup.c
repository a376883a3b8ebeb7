/* startup.c — minimal start-up for Cortex-M4 firmware on QEMU's mps2-an386, with newlib and
 * semihosting (librdimon): stdio goes to the host through QEMU, exit(status) ends QEMU.
 *
 * Compile it without -fplugin=roi: Reset_Handler zeroes .bss, where its own counters would be.
 * Link with mps2-an386.ld, -nostartfiles --specs=nano.specs --specs=rdimon.specs. */
#include <stdint.h>
#include <stdlib.h>

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start__[], __bss_end__[];
extern char __stack_top[];

extern int main(void);
extern void initialise_monitor_handles(void);
extern void __libc_init_array(void);
extern void _exit(int status) __attribute__((noreturn));

void Reset_Handler(void) __attribute__((noreturn));
void Fault_Handler(void) __attribute__((noreturn));

/* 16 system exceptions; no device interrupt is enabled, so no IRQ entries are needed. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
	(void (*)(void))__stack_top,
	Reset_Handler,
	Fault_Handler, /* NMI */
	Fault_Handler, /* HardFault */
	Fault_Handler, /* MemManage */
	Fault_Handler, /* BusFault */
	Fault_Handler, /* UsageFault */
	0, 0, 0, 0,
	Fault_Handler, /* SVCall */
	Fault_Handler, /* DebugMonitor */
	0,
	Fault_Handler, /* PendSV */
	Fault_Handler, /* SysTick */
};

/* -nostartfiles drops crti.o, which defines these for __libc_init_array and exit. */
void _init(void) {}
void _fini(void) {}

void Reset_Handler(void)
{
	uint32_t *src = __data_load, *dst;

	for (dst = __data_start; dst < __data_end;)
		*dst++ = *src++;
	for (dst = __bss_start__; dst < __bss_end__;)
		*dst++ = 0;
#if defined(__ARM_FP)
	/* Code built with -mfloat-abi=hard uses the FPU: grant full access to CP10 and CP11. */
	*(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
	__asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
	initialise_monitor_handles();
	__libc_init_array();
	exit(main());
}

/* Any exception is unexpected here: say which through a raw semihosting call (the C library
 * may be what broke) and stop through _exit, so "roi run" still reads the counters. */
void Fault_Handler(void)
{
	char msg[] = "fault: exception 00\n";
	unsigned n;

	__asm__ volatile("mrs %0, ipsr" : "=r"(n));
	n &= 0x1ff;
	msg[17] = (char)('0' + n / 10 % 10);
	msg[18] = (char)('0' + n % 10);
	register uintptr_t op __asm__("r0") = 0x04; /* SYS_WRITE0 */
	register const char *arg __asm__("r1") = msg;
	__asm__ volatile("bkpt 0xab" : "+r"(op) : "r"(arg) : "memory");
	_exit(128 + (int)n);
}
