// A seccomp filter that stops sandboxed commands from creating Unix-domain sockets. Path-based
// sockets ignore both the read-only mounts and the network namespace, so without it a command
// could connect to the Docker daemon, a tmux server or the ssh agent and act outside the sandbox.
// Hiding known socket files (host-sockets.ts) cannot be complete; refusing socket(AF_UNIX) is.
// socketpair() stays allowed: it makes an anonymous pair, which is how many programs talk to
// their own children, and cannot reach anything outside.

// Classic BPF, as the kernel's seccomp reads it: { u16 code; u8 jt; u8 jf; u32 k } per instruction.
const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_IF_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_IF_BITS = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;

// Offsets in struct seccomp_data.
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16; // little-endian: the low half of args[0]

const X32_SYSCALL_BIT = 0x40000000;

interface ArchSyscalls {
  auditArch: number;
  socket: number;
  ioUringSetup: number;
}

const ARCHES: Partial<Record<NodeJS.Architecture, ArchSyscalls>> = {
  x64: { auditArch: 0xc000003e, socket: 41, ioUringSetup: 425 },
  arm64: { auditArch: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

type Instruction = [code: number, jumpIfTrue: number, jumpIfFalse: number, k: number];

/**
 * The compiled filter for this machine's architecture, or undefined where we have no syscall
 * table (the caller then falls back to hiding known socket files).
 *
 * Anything running under another ABI (32-bit binaries, x32) gets EPERM for every system call:
 * their socket calls have other numbers (or go through socketcall) that this filter does not
 * decode, so letting them through would reopen the hole. io_uring is refused too, because its
 * IORING_OP_SOCKET creates sockets without the socket() system call.
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const table = ARCHES[arch];
  if (!table) return undefined;
  const deny = SECCOMP_RET_ERRNO | EPERM;
  const program: Instruction[] = [
    [LOAD_WORD, 0, 0, OFFSET_ARCH],
    [JUMP_IF_EQUAL, 1, 0, table.auditArch],
    [RETURN, 0, 0, deny],
    [LOAD_WORD, 0, 0, OFFSET_NR],
    [JUMP_IF_BITS, 4, 0, X32_SYSCALL_BIT], // → deny
    [JUMP_IF_EQUAL, 3, 0, table.ioUringSetup], // → deny
    [JUMP_IF_EQUAL, 0, 3, table.socket], // not socket() → allow
    [LOAD_WORD, 0, 0, OFFSET_ARG0_LOW],
    [JUMP_IF_EQUAL, 0, 1, AF_UNIX], // not AF_UNIX → allow
    [RETURN, 0, 0, deny],
    [RETURN, 0, 0, SECCOMP_RET_ALLOW],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jumpIfTrue, jumpIfFalse, k], index) => {
    const at = index * 8;
    bytes.writeUInt16LE(code, at);
    bytes.writeUInt8(jumpIfTrue, at + 2);
    bytes.writeUInt8(jumpIfFalse, at + 3);
    bytes.writeUInt32LE(k >>> 0, at + 4);
  });
  return bytes;
}
