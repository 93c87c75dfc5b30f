import Foundation
import RunMateTestSupport
import Testing

/// `--goal-time` (issue 22, case 6), through the real binary.
@Suite(.tags(.endToEnd)) struct GoalTimeCommandTests {
  static let half = ["plan", "--now", "2026-11-21", "--distance", "half", "--level", "intermediate", "--weeks", "12"]

  @Test func goalTimeIsInTheHeaderAndTheJSON() throws {
    let text = try runmate(Self.half + ["--goal-time", "1:50:00"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.split(separator: "\n").dropFirst().first?.hasSuffix(" · goal 1:50:00 (VDOT 40.4)") == true)
    let json = try runmate(Self.half + ["--goal-time", "1:50:00", "--format", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    let plan = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let goal = try #require(plan?["goal"] as? [String: Any])
    #expect(goal["goal_time_s"] as? Int == 6600)
    #expect(goal["vdot"] as? Double == 40.4)
    #expect(goal["vdot_source"] as? String == "goal-time")
    #expect(goal["predicted_time_s"] as? Int == 6600)
  }

  @Test func tooAmbitiousGoalIsRefusedWithOneLine() throws {
    let result = try runmate(Self.half + ["--goal-time", "1:35:00", "--recent-race", "10k=45:00"])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "runmate: --goal-time 1:35:00 needs VDOT 47.9, your 10K (45:00) says 45.3: aim for 1:35:24, or give it "
        + "14 weeks (--weeks 14)\n")
  }

  @Test func slowerGoalThanTheRaceWarns() throws {
    let result = try runmate(Self.half + ["--goal-time", "1:50:00", "--recent-race", "10k=45:00"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "warning: your 10K (45:00) predicts 1:39:44 for the half marathon: the goal 1:50:00 is slower (VDOT 40.4 "
          + "against 45.3), so the paces follow the goal\n"))
  }

  @Test func implausibleAndMalformedGoalTimesAreRefused() throws {
    let fast = try runmate(Self.half + ["--goal-time", "50:00"])
    #expect(fast.status == 64)
    #expect(
      fast.stderr
        == "runmate: --goal-time: 50:00 is out of range for a half marathon, allowed is 57:17 (the world records' "
        + "level) to 3:30:58 (a brisk walk); check the time (h:mm:ss or m:ss)\n")
    let malformed = try runmate(Self.half + ["--goal-time", "1:75:00"])
    #expect(malformed.status == 64)
    #expect(
      malformed.stderr
        == "runmate: --goal-time: '1:75:00' is not valid, allowed is a time as h:mm:ss or m:ss, such as 1:50:00 or "
        + "24:30\n")
    #expect(malformed.stdout.isEmpty)
  }
}
