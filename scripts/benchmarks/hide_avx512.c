// Hides AVX-512 from every program it is preloaded into, so that an AVX-512 machine can time the
// AVX2 paths of our engine and of its peers side by side: LiteRT's and MediaPipe's XNNPACK then
// pick their FMA3 micro-kernels (xnn_f32_gemm_minmax_ukernel_6x16__asm_amd64_fma3_broadcast and
// the like, as on a CPU without AVX-512), and `vision-tasks` its AVX2 kernels.
//
//   cc -O2 -shared -fPIC -o hide_avx512.so scripts/benchmarks/hide_avx512.c -ldl
//   LD_PRELOAD=$PWD/hide_avx512.so COMMAND ...      (run.sh does this with HIDE_AVX512=1)
//
// Programs learn what the CPU offers from the CPUID instruction, which user code cannot
// intercept — except on Linux with CPUID faulting (`cpuid_fault` in /proc/cpuinfo: Intel CPUs
// since Ivy Bridge, and KVM guests such as this project's virtual machines, AMD ones included,
// where the hypervisor provides it): arch_prctl(ARCH_SET_CPUID, 0) makes CPUID raise SIGSEGV in
// the calling thread and in the threads it creates later. The handler below answers each fault
// with the real CPUID values (CPUID re-enabled for the one instruction) less the AVX-512 feature
// bits of leaf 7 (sub-leaves 0 and 1), then steps over the two-byte instruction. Every other
// leaf passes unchanged, so AVX2, FMA and the rest stay.
//
// A program's own SIGSEGV handler (the C compiler's crash report, a language runtime's
// backtracer) must not replace this one, or its next CPUID would crash it: sigaction() and
// signal() are interposed for SIGSEGV, keep the program's handler aside, and faults other than
// CPUID go to it (or end the program as the default action would).
//
// Limits: values read before the constructor runs keep AVX-512 (the dynamic loader's own checks,
// so glibc's string functions keep their EVEX versions); a program that sets SIGSEGV through the
// raw system call, not the C library, would still displace the handler. Without CPUID faulting
// the constructor says so and exits with status 3, so that nothing is measured under a wrong
// name. The instructions themselves still run: this hides a feature, it does not emulate a CPU,
// so frequencies, caches and the multiply-add units are the AVX-512 host's, and the figures say
// how the two AVX2 paths compare on this core, not on an AVX2 one.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "hide_avx512.c is for x86-64 Linux"
#endif

static long set_cpuid_enabled(int enabled) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, (unsigned long)enabled); }

// Leaf 7 sub-leaf 0: EBX AVX512F (16), DQ (17), IFMA (21), PF (26), ER (27), CD (28), BW (30),
// VL (31); ECX VBMI (1), VBMI2 (6), VNNI (11), BITALG (12), VPOPCNTDQ (14); EDX 4VNNIW (2),
// 4FMAPS (3), VP2INTERSECT (8), FP16 (23). Sub-leaf 1: EAX AVX512_BF16 (5). (Intel SDM vol. 2A,
// CPUID.)
enum {
    leaf7_ebx = (1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | (1u << 31),
    leaf7_ecx = (1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14),
    leaf7_edx = (1u << 2) | (1u << 3) | (1u << 8) | (1u << 23),
    leaf7_1_eax = 1u << 5,
};

typedef int (*sigaction_function)(int, const struct sigaction *, struct sigaction *);

// The C library's sigaction, for this file's own calls.
static int real_sigaction(int signal_number, const struct sigaction *action, struct sigaction *old) {
    static sigaction_function real;
    if (!real) real = (sigaction_function)dlsym(RTLD_NEXT, "sigaction");
    return real(signal_number, action, old);
}

// Whether on_fault is installed, and the SIGSEGV action the program asked for since (SIG_DFL
// until it asks).
static int installed;
static struct sigaction program_action;

// A fault that is not a CPUID: the program's handler, else the default action (the instruction
// faults again once this returns).
static void pass_on(int signal_number, siginfo_t *info, void *context) {
    if (program_action.sa_flags & SA_SIGINFO) {
        program_action.sa_sigaction(signal_number, info, context);
        return;
    }
    if (program_action.sa_handler != SIG_DFL && program_action.sa_handler != SIG_IGN) {
        program_action.sa_handler(signal_number);
        return;
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    real_sigaction(signal_number, &fallback, NULL);
}

static void on_fault(int signal_number, siginfo_t *info, void *context) {
    greg_t *registers = ((ucontext_t *)context)->uc_mcontext.gregs;
    const unsigned char *instruction = (const unsigned char *)registers[REG_RIP];
    if (instruction[0] != 0x0f || instruction[1] != 0xa2) {
        pass_on(signal_number, info, context);
        return;
    }
    const unsigned leaf = (unsigned)registers[REG_RAX], subleaf = (unsigned)registers[REG_RCX];
    unsigned a, b, c, d;
    set_cpuid_enabled(1);
    __cpuid_count(leaf, subleaf, a, b, c, d);
    set_cpuid_enabled(0);
    if (leaf == 7 && subleaf == 0) b &= ~(unsigned)leaf7_ebx, c &= ~(unsigned)leaf7_ecx, d &= ~(unsigned)leaf7_edx;
    if (leaf == 7 && subleaf == 1) a &= ~(unsigned)leaf7_1_eax;
    registers[REG_RAX] = a, registers[REG_RBX] = b, registers[REG_RCX] = c, registers[REG_RDX] = d;
    registers[REG_RIP] += 2;
}

// The program's sigaction() and signal() for SIGSEGV: kept aside for pass_on.
int sigaction(int signal_number, const struct sigaction *action, struct sigaction *old) {
    if (signal_number != SIGSEGV || !installed) return real_sigaction(signal_number, action, old);
    if (old) *old = program_action;
    if (action) program_action = *action;
    return 0;
}

sighandler_t signal(int signal_number, sighandler_t handler) {
    struct sigaction action, old;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(signal_number, &action, &old) == 0 ? old.sa_handler : SIG_ERR;
}

__attribute__((constructor)) static void hide_avx512(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    program_action.sa_handler = SIG_DFL;
    if (real_sigaction(SIGSEGV, &action, NULL) != 0 || set_cpuid_enabled(0) != 0) {
        fprintf(stderr, "hide_avx512: this CPU or kernel has no CPUID faulting (arch_prctl ARCH_SET_CPUID)\n");
        _exit(3);
    }
    installed = 1;
}
