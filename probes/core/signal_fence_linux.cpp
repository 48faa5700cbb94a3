// Linux: the fence as a seccomp-BPF filter, with plain prctl() (no libseccomp). A refused call
// traps (SECCOMP_RET_TRAP): the SIGSYS handler below writes it down in the shared FenceLog and
// makes the call return -EPERM, so that the driver goes on as if the kernel had said no.
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sockios.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/signal_fence.hpp"

namespace gpudoctor {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
#else
constexpr std::uint32_t kNativeArch = 0;  // no fence: the handler cannot set a return value
#endif

FenceLog* g_fence_log = nullptr;

/// The trapped call's first arguments, and its return value set to -EPERM.
void on_fenced_call(int, siginfo_t* info, void* context) {
  auto* uc = static_cast<ucontext_t*>(context);
  FenceRecord r;
  r.call = info->si_syscall;
#if defined(__x86_64__)
  r.args[0] = uc->uc_mcontext.gregs[REG_RDI];
  r.args[1] = uc->uc_mcontext.gregs[REG_RSI];
  r.args[2] = uc->uc_mcontext.gregs[REG_RDX];
  uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__aarch64__)
  for (int i = 0; i < 3; ++i) r.args[i] = static_cast<std::int64_t>(uc->uc_mcontext.regs[i]);
  uc->uc_mcontext.regs[0] = static_cast<unsigned long long>(-EPERM);
#endif
  if (g_fence_log == nullptr) return;
  const std::uint32_t at = g_fence_log->count.fetch_add(1);
  if (at < sizeof g_fence_log->records / sizeof g_fence_log->records[0]) {
    g_fence_log->records[at] = r;
  }
}

constexpr std::uint32_t arg_low(int i) {
  // The low 32 bits of an argument (little endian, both architectures): the kernel reads a
  // pid_t or an int command from them, whatever a caller leaves in the high half.
  return static_cast<std::uint32_t>(offsetof(seccomp_data, args) + 8 * i);
}

/// Classic BPF with forward labels: every conditional jump skips one `ja`, whose 32-bit offset
/// reaches any label, so that no 8-bit jump offset can overflow however long the sibling list.
class Program {
 public:
  enum Label { kNative, kAllow, kTrap, kNoSys, kTarget, kKill, kTgkill, kPidFirst, kPidSecond,
               kFcntl, kSetOwner, kIoctl, kPidfdSignal, kLabels };

  void load(std::uint32_t offset) { code_.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void ret(std::uint32_t value) { code_.push_back(BPF_STMT(BPF_RET | BPF_K, value)); }
  void if_eq(std::uint32_t k, Label to) { cond(BPF_JEQ, k, to); }
  void if_ge(std::uint32_t k, Label to) { cond(BPF_JGE, k, to); }
  void if_any_bit(std::uint32_t k, Label to) { cond(BPF_JSET, k, to); }
  void jump(Label to) {
    fixups_.emplace_back(code_.size(), to);
    code_.push_back(BPF_STMT(BPF_JMP | BPF_JA, 0));
  }
  void mark(Label l) { at_[l] = code_.size(); }
  std::vector<sock_filter> finish() {
    for (auto [index, label] : fixups_) {
      code_[index].k = static_cast<std::uint32_t>(at_[label] - index - 1);
    }
    return code_;
  }

 private:
  void cond(std::uint16_t op, std::uint32_t k, Label to) {
    code_.push_back(BPF_JUMP(BPF_JMP | op | BPF_K, k, 0, 1));
    jump(to);
  }
  std::vector<sock_filter> code_;
  std::vector<std::pair<std::size_t, Label>> fixups_;
  std::size_t at_[kLabels] = {};
};

std::uint32_t as_word(pid_t pid) { return static_cast<std::uint32_t>(pid); }

std::vector<sock_filter> fence_program(const FenceTargets& t) {
  using P = Program;
  const pid_t self = ::getpid();
  P p;
  p.load(offsetof(seccomp_data, arch));
  p.if_eq(kNativeArch, P::kNative);
  p.ret(SECCOMP_RET_ERRNO | ENOSYS);  // another ABI (int 0x80) is never a driver's way
  p.mark(P::kNative);
  p.load(offsetof(seccomp_data, nr));
#if defined(__x86_64__)
  p.if_ge(0x40000000u, P::kNoSys);  // the x32 ABI's numbers
#endif
  p.if_eq(SYS_kill, P::kKill);
  p.if_eq(SYS_rt_sigqueueinfo, P::kKill);
  p.if_eq(SYS_tkill, P::kPidFirst);
  p.if_eq(SYS_tgkill, P::kTgkill);
  p.if_eq(SYS_rt_tgsigqueueinfo, P::kTgkill);
  p.if_eq(SYS_process_vm_readv, P::kPidFirst);
  p.if_eq(SYS_process_vm_writev, P::kPidFirst);
  p.if_eq(SYS_prlimit64, P::kPidFirst);
  p.if_eq(SYS_ptrace, P::kPidSecond);
#ifdef SYS_pidfd_open
  p.if_eq(SYS_pidfd_open, P::kPidFirst);
#endif
#ifdef SYS_pidfd_send_signal
  p.if_eq(SYS_pidfd_send_signal, P::kPidfdSignal);
#endif
  p.if_eq(SYS_fcntl, P::kFcntl);
  p.if_eq(SYS_ioctl, P::kIoctl);
  p.jump(P::kAllow);

  // kill(pid, sig), rt_sigqueueinfo(pid, sig, info): a signal number 0 only asks whether the
  // process exists; 0, the child's pid and its group are its own; any other group (and -1,
  // every process) is refused; a single process goes through the target list.
  p.mark(P::kKill);
  p.load(arg_low(1));
  p.if_eq(0, P::kAllow);
  p.load(arg_low(0));
  p.if_eq(0, P::kAllow);
  p.if_eq(as_word(self), P::kAllow);
  p.if_eq(as_word(-self), P::kAllow);
  p.if_any_bit(0x80000000u, P::kTrap);
  p.jump(P::kTarget);

  // tgkill(tgid, tid, sig), rt_tgsigqueueinfo(tgid, tid, sig, info): the process is tgid.
  p.mark(P::kTgkill);
  p.load(arg_low(2));
  p.if_eq(0, P::kAllow);
  p.load(arg_low(0));
  p.jump(P::kTarget);

  // tkill(tid, …), pidfd_open(pid, …), process_vm_*(pid, …), prlimit64(pid, …): the first.
  p.mark(P::kPidFirst);
  p.load(arg_low(0));
  p.jump(P::kTarget);

  // ptrace(request, pid, …): the second.
  p.mark(P::kPidSecond);
  p.load(arg_low(1));
  p.jump(P::kTarget);

  // A pidfd names no pid the filter can see (a /proc/<pid> directory is one too): only the
  // existence test (signal 0) goes through.
  p.mark(P::kPidfdSignal);
  p.load(arg_low(1));
  p.if_eq(0, P::kAllow);
  p.jump(P::kTrap);

  // fcntl(fd, F_SETOWN, pid) makes SIGIO (or F_SETSIG's signal) go to pid, or a group when
  // negative; F_SETOWN_EX and ioctl FIOSETOWN/SIOCSPGRP pass it through memory the filter cannot
  // read, and no driver needs them.
  p.mark(P::kFcntl);
  p.load(arg_low(1));
  p.if_eq(F_SETOWN, P::kSetOwner);
  p.if_eq(F_SETOWN_EX, P::kTrap);
  p.jump(P::kAllow);
  p.mark(P::kSetOwner);
  p.load(arg_low(2));
  p.if_eq(0, P::kAllow);
  p.if_eq(as_word(self), P::kAllow);
  p.if_eq(as_word(-self), P::kAllow);
  p.if_any_bit(0x80000000u, P::kTrap);
  p.jump(P::kTarget);
  p.mark(P::kIoctl);
  p.load(arg_low(1));
  p.if_eq(FIOSETOWN, P::kTrap);
  p.if_eq(SIOCSPGRP, P::kTrap);
  p.jump(P::kAllow);

  // One process: gpudoctor, init and the running siblings are refused; the rest (the driver's
  // own helpers) allowed.
  p.mark(P::kTarget);
  p.if_eq(as_word(t.parent), P::kTrap);
  p.if_eq(1, P::kTrap);
  for (pid_t s : t.siblings) p.if_eq(as_word(s), P::kTrap);
  p.jump(P::kAllow);

  p.mark(P::kAllow);
  p.ret(SECCOMP_RET_ALLOW);
  p.mark(P::kTrap);
  p.ret(SECCOMP_RET_TRAP);
  p.mark(P::kNoSys);
  p.ret(SECCOMP_RET_ERRNO | ENOSYS);
  return p.finish();
}

std::string signal_name(std::int64_t sig) {
  const char* abbrev = sig > 0 && sig < NSIG ? sigabbrev_np(static_cast<int>(sig)) : nullptr;
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string pid_text(std::int64_t raw, pid_t parent, pid_t parent_group) {
  const auto pid = static_cast<pid_t>(raw);
  if (pid == parent) return "gpudoctor";
  if (pid == -1) return "-1: every process it may signal";
  if (pid == -parent_group) return "gpudoctor's process group";
  if (pid == 1) return "init";
  if (pid < 0) return "process group " + std::to_string(-pid);
  return "process " + std::to_string(pid);
}

}  // namespace

std::string raise_signal_fence(const FenceTargets& targets, FenceLog* log) {
  if (kNativeArch == 0) return "no seccomp fence for this architecture";
  g_fence_log = log;
  struct sigaction sa {};
  sa.sa_sigaction = on_fenced_call;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (::sigaction(SIGSYS, &sa, nullptr) != 0) return std::string("sigaction: ") + std::strerror(errno);
  std::vector<sock_filter> code = fence_program(targets);
  sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
  // Without CAP_SYS_ADMIN the kernel takes a filter only with no_new_privs; as root the filter
  // goes on without it, so that a set-user-ID helper a driver runs keeps working as before.
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0) return {};
  if (errno != EACCES) return std::string("seccomp: ") + std::strerror(errno);
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return std::string("no_new_privs: ") + std::strerror(errno);
  }
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0) return {};
  return std::string("seccomp: ") + std::strerror(errno);
}

std::string describe_fenced_call(const FenceRecord& r, pid_t parent, pid_t parent_group) {
  auto pid = [&](int i) { return pid_text(r.args[i], parent, parent_group); };
  switch (r.call) {
    case SYS_kill: return "kill(" + pid(0) + ", " + signal_name(r.args[1]) + ")";
    case SYS_rt_sigqueueinfo:
      return "sigqueue(" + pid(0) + ", " + signal_name(r.args[1]) + ")";
    case SYS_tkill: return "tkill(" + pid(0) + ", " + signal_name(r.args[1]) + ")";
    case SYS_tgkill: return "tgkill(" + pid(0) + ", " + signal_name(r.args[2]) + ")";
    case SYS_rt_tgsigqueueinfo:
      return "rt_tgsigqueueinfo(" + pid(0) + ", " + signal_name(r.args[2]) + ")";
    case SYS_ptrace: return "ptrace(" + pid(1) + ")";
    case SYS_process_vm_readv: return "process_vm_readv(" + pid(0) + ")";
    case SYS_process_vm_writev: return "process_vm_writev(" + pid(0) + ")";
    case SYS_prlimit64: return "prlimit(" + pid(0) + ")";
#ifdef SYS_pidfd_open
    case SYS_pidfd_open: return "pidfd_open(" + pid(0) + ")";
#endif
#ifdef SYS_pidfd_send_signal
    case SYS_pidfd_send_signal: return "pidfd_send_signal(" + signal_name(r.args[1]) + ")";
#endif
    case SYS_fcntl:
      return r.args[1] == F_SETOWN ? "fcntl(F_SETOWN, " + pid(2) + ")" : "fcntl(F_SETOWN_EX)";
    case SYS_ioctl: return "ioctl(FIOSETOWN)";
    default: return "system call " + std::to_string(r.call);
  }
}

}  // namespace gpudoctor
