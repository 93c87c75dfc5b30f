import CoachClient
import Foundation
import RunMateTestSupport
import Testing

/// Issue 44's probe of `pull` against a server that always says more updates follow: it made 4,132 requests and grew
/// to 1.8 GB. A pull now stops after ``CoachClient/maxUpdatePages`` answers with one clear refusal.
@Suite(.timeLimit(.minutes(2))) struct BoundedClientTests {
  @Test(.enabled(if: hasPython3, "needs python3")) func aServerThatAlwaysSaysMoreIsStoppedInBounds()
    async throws
  {
    let script = """
      import http.server, json, sys
      class H(http.server.BaseHTTPRequestHandler):
          count = 0
          def do_GET(self):
              H.count += 1
              body = json.dumps({"athlete": "ana", "comments": [], "more": True,
                                 "cursor": "u1.%d.x" % H.count}).encode()
              self.send_response(200)
              self.send_header("Content-Type", "application/json")
              self.send_header("Content-Length", str(len(body)))
              self.end_headers()
              self.wfile.write(body)
          def log_message(self, *args):
              pass
      server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
      print(server.server_address[1], flush=True)
      server.serve_forever()
      """
    let process = Process()
    // Python itself, not a shim that starts it as a child (pyenv's): terminate() must reach the server.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-u", "-c", script]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    defer {
      // SIGKILL: the test process's threads block SIGTERM, and a child started from one inherits the mask.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // Read off the concurrency pool: a blocked read there starves the tests beside it (2 threads on 2 cores).
    let reader = output.fileHandleForReading
    let line = try await offPool { reader.availableData }
    let port = try #require(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    let client = try CoachClient(server: "http://127.0.0.1:\(port)")
    let started = ContinuousClock.now
    do {
      // Five answers here (50 by default): the bound, not the count, is what is tested, on a loaded machine too.
      _ = try await client.updates(
        since: nil, session: CoachSession(server: client.server, login: "ana", token: "t", expiresAt: Date()),
        maxPages: 5)
      Issue.record("a pull that never ends ended")
    } catch let error as CoachClientError {
      #expect(error == .tooManyUpdates(server: client.server, pages: 5, bytes: error.bytes))
      #expect(error.description.contains("stopped, nothing was applied"), "\(error)")
    }
    #expect(started.duration(to: .now) < .seconds(60))
    await client.shutdown()
  }
}

extension CoachClientError {
  /// The bytes a ``tooManyUpdates(server:pages:bytes:)`` read (0 for any other).
  fileprivate var bytes: Int {
    if case .tooManyUpdates(_, _, let bytes) = self { return bytes }
    return 0
  }
}
