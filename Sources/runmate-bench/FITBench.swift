import Activity
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The FIT decoder benchmark (`runmate-bench --fit FILE [ROUNDS]`, run by scripts/bench-fit.sh): reads `path`
/// `rounds` times through `readActivities(at:)` (open, stream in 256 KiB chunks, check both CRCs, decode every
/// message, summarize) and prints the best round as MB/s, with the summary and the peak resident memory, in one
/// line the script parses: `fit: <bytes> bytes, best <seconds> s = <MB/s> MB/s, ...`.
func runFITBenchmark(path: String, rounds: Int) -> Int32 {
  let url = URL(fileURLWithPath: path)
  guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
    let bytes = (attributes[.size] as? NSNumber)?.intValue
  else {
    FileHandle.standardError.write(Data("runmate-bench: cannot read \(path)\n".utf8))
    return 66
  }
  let clock = ContinuousClock()
  var best = Duration.seconds(1_000_000)
  var summary: ActivitySummary?
  for _ in 0..<max(1, rounds) {
    let start = clock.now
    do {
      summary = try readActivities(at: url).first
    } catch {
      FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
      return 65
    }
    best = min(best, clock.now - start)
  }
  let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
  var usage = rusage()
  #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  let peakMB = Double(usage.ru_maxrss) / 1024
  let distance = (summary?.distanceMeters ?? 0) / 1000
  print(
    "fit: \(bytes) bytes, best \(String(format: "%.4f", seconds)) s = "
      + "\(String(format: "%.1f", Double(bytes) / 1e6 / seconds)) MB/s, "
      + "\(summary?.pointCount ?? 0) records, \(String(format: "%.2f", distance)) km, "
      + "peak memory \(String(format: "%.1f", peakMB)) MB")
  return 0
}
