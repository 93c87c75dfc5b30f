import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a child process under watch: `posix_spawn`, then `wait4(2)` for its exit status, wall time and peak
/// resident memory (`ru_maxrss`), killing it when it outlives its time bound or grows past its memory bound.
///
/// The child's own numbers, not the test process's: unlike reading this process's peak memory, tests running
/// alongside cannot inflate them. Output goes to files (no pipes to drain, so a chatty child cannot block).
public enum ProcessProbe {
  /// How long and how large a child may get before it is killed.
  public struct Limits: Sendable, CustomStringConvertible {
    /// Wall time, seconds.
    public var seconds: Double
    /// Peak resident memory, MiB.
    public var memoryMiB: Int

    /// Bounds of `seconds` and `memoryMiB`.
    public init(seconds: Double, memoryMiB: Int) {
      self.seconds = seconds
      self.memoryMiB = memoryMiB
    }

    /// `5.0 s, 150 MiB`.
    public var description: String { "\(seconds) s, \(memoryMiB) MiB" }
  }

  /// How a child ended.
  public enum End: Equatable, Sendable, CustomStringConvertible {
    /// It called exit with this status.
    case exited(Int32)
    /// A signal it did not handle ended it (a crash: SIGILL from a Swift trap, SIGABRT, SIGSEGV, …).
    case signaled(Int32)
    /// It ran past its time bound and was killed.
    case killedAfterTimeout
    /// Its resident memory went past its bound and it was killed.
    case killedOverMemory

    /// `exit 65`, `killed by signal 4`, …
    public var description: String {
      switch self {
      case .exited(let code): "exit \(code)"
      case .signaled(let signal): "killed by signal \(signal)"
      case .killedAfterTimeout: "killed after its time bound"
      case .killedOverMemory: "killed over its memory bound"
      }
    }
  }

  /// What a child printed, how it ended, how long it took and its peak resident memory.
  public struct Result: Sendable {
    /// How it ended.
    public var end: End
    /// What it wrote on standard output.
    public var stdout: Data
    /// What it wrote on standard error.
    public var stderr: Data
    /// Wall time from spawn to exit.
    public var wallSeconds: Double
    /// Peak resident set size, KiB: the child's own `ru_maxrss`, as measured by `rusage-probe`.
    public var peakRSSKiB: Int
    /// The child's CPU time (user and system), as measured by `rusage-probe`; 0 when it was killed. What a bound on
    /// a program's work should check: unlike wall time, it does not grow when the machine is busy.
    public var cpuSeconds: Double

    /// Standard output as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// Peak resident set size, MiB.
    public var peakRSSMiB: Double { Double(peakRSSKiB) / 1024 }
  }

  /// A child that could not be started.
  public struct SpawnFailed: Error, CustomStringConvertible {
    /// The program.
    public var executable: String
    /// The errno of the failure.
    public var code: Int32
    /// `cannot start PATH: REASON`.
    public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
  }

  /// Runs `executable` with `arguments` in `directory`, with exactly `environment`, standard input from
  /// `/dev/null` (or `stdin`), and waits for it within `limits`.
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String], stdin: URL? = nil, limits: Limits
  ) throws -> Result {
    let capture = FileManager.default.temporaryDirectory
      .appendingPathComponent("runmate-probe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: capture) }
    let outPath = capture.appendingPathComponent("stdout").path
    let errPath = capture.appendingPathComponent("stderr").path

    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
    #else
      var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin?.path ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var prefix: [String] = []
    if let directory {
      if let addChdir = addChdir {
        _ = addChdir(&actions, directory.path)
      } else {
        // Without posix_spawn_file_actions_addchdir_np (glibc before 2.29): env(1) changes directory, then execs.
        prefix = ["/usr/bin/env", "-C", directory.path]
      }
    }

    // Linux quirk: posix_spawn is a vfork, and exec folds the *spawning* process's peak RSS into the child's
    // ru_maxrss. So the child is started by `rusage-probe`, a tiny C helper that forks it and writes its true
    // ru_maxrss and wait status to a report file; this process watches the child's pid (printed first) for bounds.
    let reportPath = capture.appendingPathComponent("report").path
    let helper = try rusageProbe()
    // The helper execs its second argument with the rest as argv: `prefix`'s first word or `executable` itself.
    let argv = ([helper.path, reportPath] + prefix + [executable.path] + arguments).map { strdup($0) }
    defer { for pointer in argv { free(pointer) } }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer { for pointer in envp { free(pointer) } }

    // Its own process group, so that a kill reaches the helper and the child together.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)

    let clock = ContinuousClock()
    let started = clock.now
    var pid: pid_t = 0
    let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
      (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
        guard let argvBase = argvBuffer.baseAddress, let envpBase = envpBuffer.baseAddress else { return EINVAL }
        return posix_spawn(&pid, helper.path, &actions, &attributes, argvBase, envpBase)
      }
    }
    guard spawned == 0 else { throw SpawnFailed(executable: helper.path, code: spawned) }

    var status: Int32 = 0
    var usage = rusage()
    var killedFor: End?
    var child: String?
    var pause: useconds_t = 500
    while true {
      let waited = wait4(pid, &status, WNOHANG, &usage)
      if waited == pid { break }
      if waited == -1 && errno != EINTR { throw SpawnFailed(executable: helper.path, code: errno) }
      if child == nil { child = ProbeReport(path: reportPath)?.pid.map { String($0) } }
      let memory = child.flatMap { memoryKiB(of: $0) }
      let elapsed = started.duration(to: clock.now)
      let overTime = elapsed > .milliseconds(Int64(limits.seconds * 1000))
      // Killed a little above the bound, so that the row reports the measured peak against the bound.
      let overMemory = (memory?.resident ?? 0) > limits.memoryMiB * 1024 * 3 / 2
      if overTime || overMemory {
        killedFor = overTime ? .killedAfterTimeout : .killedOverMemory
        kill(-pid, SIGKILL)
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        break
      }
      usleep(pause)
      pause = min(pause * 2, 10_000)
    }
    let report = ProbeReport(path: reportPath)
    if killedFor == nil {
      guard let report, let childStatus = report.status else { throw SpawnFailed(executable: helper.path, code: EIO) }
      guard report.execErrno == 0 else { throw SpawnFailed(executable: executable.path, code: report.execErrno) }
      status = childStatus
    }
    let peak = max(report?.maxRSSKiB ?? 0, 1)
    let elapsed = started.duration(to: clock.now)
    let end: End
    if let killedFor {
      end = killedFor
    } else if status & 0x7f == 0 {
      end = .exited((status >> 8) & 0xff)
    } else {
      end = .signaled(status & 0x7f)
    }
    return Result(
      end: end,
      stdout: FileManager.default.contents(atPath: outPath) ?? Data(),
      stderr: FileManager.default.contents(atPath: errPath) ?? Data(),
      wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
      peakRSSKiB: peak, cpuSeconds: Double(report?.cpuMicroseconds ?? 0) / 1e6)
  }

  /// What `rusage-probe` wrote: the child's pid at once, then its wait status, peak RSS (KiB), exec errno and CPU
  /// time (microseconds).
  struct ProbeReport {
    var pid: Int32?
    var status: Int32?
    var maxRSSKiB: Int?
    var execErrno: Int32 = 0
    var cpuMicroseconds: Int?

    init?(path: String) {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        var fields: [Substring: Substring] = [:]
        for index in stride(from: 0, to: words.count - 1, by: 2) { fields[words[index]] = words[index + 1] }
        if let pid = fields["pid"] { self.pid = Int32(pid) }
        if let status = fields["status"], let maxRSS = fields["maxrss"], let code = fields["errno"] {
          self.status = Int32(status)
          maxRSSKiB = Int(maxRSS)
          execErrno = Int32(code) ?? 0
          cpuMicroseconds = fields["cpu"].flatMap { Int($0) }
        }
      }
    }
  }

  /// The built `rusage-probe` helper, next to the built `runmate`.
  public static func rusageProbe() throws -> URL {
    let helper = try runmateBinary().deletingLastPathComponent().appendingPathComponent("rusage-probe")
    guard FileManager.default.isExecutableFile(atPath: helper.path) else {
      throw SpawnFailed(executable: helper.path, code: ENOENT)
    }
    return helper
  }

  #if canImport(Glibc)
    typealias AddChdir =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which the Glibc module does not declare.
    static let addChdir: AddChdir? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np")
      .map { unsafeBitCast($0, to: AddChdir.self) }
  #else
    typealias AddChdir =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t?>, UnsafePointer<CChar>) -> Int32
    static let addChdir: AddChdir? = { posix_spawn_file_actions_addchdir_np($0, $1) }
  #endif

  /// A process's resident memory now and its high-water mark, KiB (Linux `/proc/PID/status`; `self` for this
  /// process), nil where that cannot be read.
  public static func memoryKiB(of process: String) -> (resident: Int, peak: Int)? {
    guard let text = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
    var resident: Int?
    var peak: Int?
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") || line.hasPrefix("VmHWM:") {
      let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
      if line.hasPrefix("VmRSS:") { resident = value } else { peak = value }
    }
    guard let resident, let peak else { return nil }
    return (resident, peak)
  }

  /// Runs `work` for each element on up to `width` threads at once; results keep the input's order.
  public static func concurrentMap<T: Sendable, R: Sendable>(
    _ items: [T], width: Int,
    _ work: @escaping @Sendable (T) -> R
  ) -> [R] {
    let results = Results<R>(count: items.count)
    let next = Counter()
    let group = DispatchGroup()
    for _ in 0..<max(1, min(width, items.count)) {
      group.enter()
      let thread = Thread {
        while let index = next.take(below: items.count) { results.set(index, work(items[index])) }
        group.leave()
      }
      thread.stackSize = 4 << 20
      thread.start()
    }
    group.wait()
    return results.all()
  }

  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
      lock.withLock {
        guard value < limit else { return nil }
        defer { value += 1 }
        return value
      }
    }
  }

  private final class Results<R>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [R?]

    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: R) { lock.withLock { values[index] = value } }
    func all() -> [R] { lock.withLock { values.compactMap { $0 } } }
  }
}
