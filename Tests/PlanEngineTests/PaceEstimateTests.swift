import Foundation
import RunMateTestSupport
import RunningCore
import Testing

@testable import PlanEngine

// Daniels–Gilbert written out again here, independently of VDOT.swift: VO2(v) = −4.60 + 0.182258·v + 0.000104·v²
// (v in m/min) over %max(t) = 0.8 + 0.1894393·e^(−0.012778·t) + 0.2989558·e^(−0.1932605·t) (t in minutes).
private func danielsVDOT(meters: Double, seconds: Double) -> Double {
  let minutes = seconds / 60
  let speed = meters / minutes
  let oxygen = -4.60 + 0.182258 * speed + 0.000104 * speed * speed
  let fraction = 0.8 + 0.1894393 * exp(-0.012778 * minutes) + 0.2989558 * exp(-0.1932605 * minutes)
  return oxygen / fraction
}

private func day(_ text: String) -> CivilDate { CivilDate(iso: text) ?? CivilDate(dayNumber: 0) }

/// The cap and the shortest race of the repository's base.yaml.
private let updates = repositoryRules.base.paceUpdates

@Suite("Races that move the VDOT")
struct PaceEstimateTests {
  @Test func baseYamlCapsEachRaceAtTwoPointsAndCountsRacesFromThreeKm() {
    #expect(updates.maxStepVdot == 2)
    #expect(updates.minRaceKm == 3)
  }

  @Test func aFasterTenKMovesTheVDOTUpByTheRaceOrTheCap() {
    // The plan from a 10K in 47:00 (VDOT 43.0); a 10K in 45:00 (45.3) moves it by 2 (the cap), 46:00 all the way.
    let plan = danielsVDOT(meters: 10_000, seconds: 47 * 60)
    let fast = RaceEvidence(date: day("2026-12-12"), distanceKm: 10, timeSeconds: 45 * 60)
    let estimate = VDOTEstimate(
      planVDOT: plan, planSource: .recentRace, races: [fast], since: day("2026-11-23"), now: day("2026-12-13"),
      rules: updates)
    let raceVDOT = danielsVDOT(meters: 10_000, seconds: 45 * 60)
    #expect(abs((estimate.steps.first?.raceVDOT ?? 0) - raceVDOT) < 1e-9)
    #expect(abs(estimate.vdot - (plan + 2)) < 1e-9, "capped: \(estimate.vdot)")
    #expect(estimate.steps.first?.capped == true)
    #expect(estimate.latestRace?.summary == "10K race on 2026-12-12, 45:00")
    #expect(estimate.moved)
    let near = RaceEvidence(date: day("2026-12-12"), distanceKm: 10, timeSeconds: 46 * 60)
    let small = VDOTEstimate(
      planVDOT: plan, planSource: .recentRace, races: [near], since: day("2026-11-23"), now: day("2026-12-13"),
      rules: updates)
    #expect(abs(small.vdot - danielsVDOT(meters: 10_000, seconds: 46 * 60)) < 1e-9)
    #expect(small.steps.first?.capped == false)
  }

  @Test func monotoneInRaceTimeAndNeverMoreThanTheCapPerRace() {
    // Property: over plan VDOTs 30…70 and races of 3 km to the marathon at 3:00 to 8:00 a km (and up to 10 minutes
    // slower), a faster race never gives a lower estimate, and every step is the race's VDOT (by the formula above)
    // clamped to ±cap around the estimate before it. Races are running performances (VDOT 20–90): a walked race
    // (below 20) moves nothing, as the next test shows.
    var random = SplitMix(seed: 24)
    for _ in 0..<300 {
      let plan = 30 + Double(random.next() % 4000) / 100
      let source: VDOTSource = random.next() % 2 == 0 ? .recentRace : .goalTime
      let km = [3, 5, 10, 15, 21.0975, 42.195][Int(random.next() % 6)]
      let perKm = 180 + Double(random.next() % 300)
      let a = perKm * km
      let b = a + Double(random.next() % 600) + 1
      guard danielsVDOT(meters: km * 1000, seconds: b) >= 20 else { continue }
      func estimate(_ seconds: Double) -> VDOTEstimate {
        VDOTEstimate(
          planVDOT: plan, planSource: source,
          races: [RaceEvidence(date: day("2027-01-10"), distanceKm: km, timeSeconds: seconds)],
          since: day("2027-01-01"), now: day("2027-02-01"), rules: updates)
      }
      let faster = estimate(a)
      let slower = estimate(b)
      #expect(faster.vdot >= slower.vdot, "plan \(plan), \(km) km in \(a) s against \(b) s")
      for result in [faster, slower] {
        for step in result.steps {
          let race = danielsVDOT(meters: step.race.distanceKm * 1000, seconds: step.race.timeSeconds)
          #expect(abs(step.raceVDOT - race) < 1e-9)
          #expect(abs(step.after - step.before) <= updates.maxStepVdot + 1e-9)
          #expect(abs(step.after - (step.before + min(2, max(-2, race - step.before)))) < 1e-9)
        }
      }
    }
  }

  @Test func aSlowRaceAfterABreakDragsTheVDOTDownByTheCapAtMost() {
    // VDOT 50 from the plan; after a break, a 10K in 60:00 (VDOT 31.5): the estimate falls to 48, not to 31.5.
    let slow = RaceEvidence(date: day("2027-02-20"), distanceKm: 10, timeSeconds: 60 * 60)
    let estimate = VDOTEstimate(
      planVDOT: 50, planSource: .recentRace, races: [slow], since: day("2027-01-01"), now: day("2027-02-21"),
      rules: updates)
    #expect(abs(estimate.vdot - 48) < 1e-9)
    #expect(estimate.steps.first?.capped == true)
  }

  @Test func racesAreTakenOldestFirstAndTheLatestIsTheSource() {
    // Three 10Ks at 45:00: 43 → 45 → 45.26 (the race itself, within the cap) → unchanged.
    let races = ["2027-01-10", "2027-01-24", "2027-02-07"].map {
      RaceEvidence(date: day($0), distanceKm: 10, timeSeconds: 45 * 60)
    }
    let estimate = VDOTEstimate(
      planVDOT: 43, planSource: .recentRace, races: races.reversed(), since: day("2027-01-01"),
      now: day("2027-02-08"), rules: updates)
    #expect(estimate.steps.map(\.race.date) == races.reversed().map(\.date))
    #expect(abs(estimate.vdot - danielsVDOT(meters: 10_000, seconds: 2700)) < 1e-9)
    #expect(abs((estimate.steps.last?.after ?? 0) - 45) < 1e-9)
  }

  @Test func shortFutureOldAndImplausibleRacesChangeNothing() {
    let races = [
      RaceEvidence(date: day("2027-01-10"), distanceKm: Distance.kilometersPerMile, timeSeconds: 300),
      RaceEvidence(date: day("2027-01-11"), distanceKm: 2.9, timeSeconds: 600),
      RaceEvidence(date: day("2027-03-01"), distanceKm: 10, timeSeconds: 2400),
      RaceEvidence(date: day("2026-06-01"), distanceKm: 10, timeSeconds: 3600),
      // A walked 10K, 2 hours (VDOT below 20): not a running performance.
      RaceEvidence(date: day("2027-01-12"), distanceKm: 10, timeSeconds: 2 * 3600),
    ]
    let estimate = VDOTEstimate(
      planVDOT: 45, planSource: .recentRace, races: races, since: day("2027-01-01"), now: day("2027-02-01"),
      rules: updates)
    #expect(estimate.vdot == 45)
    #expect(estimate.steps.isEmpty)
    #expect(!estimate.moved)
    #expect(estimate.ignored.count == 5)
    #expect(estimate.ignored.filter { $0.reason.hasPrefix("under 3 km: too short") }.count == 2)
  }

  @Test func theLevelsGuessIsReplacedByTheFirstRace() {
    let race = RaceEvidence(date: day("2027-01-10"), distanceKm: 5, timeSeconds: 20 * 60)
    let estimate = VDOTEstimate(
      planVDOT: 40, planSource: .levelEstimate, races: [race], since: day("2027-01-01"), now: day("2027-02-01"),
      rules: updates)
    #expect(abs(estimate.vdot - danielsVDOT(meters: 5000, seconds: 1200)) < 1e-9)
    #expect(estimate.steps.first?.capped == false)
  }

  @Test func riegelMatchesTheFormula() {
    // T2 = T1 × (D2/D1)^1.06, written out: a 45:00 10K gives a half in 2700 × 2.10975^1.06.
    #expect(abs(riegelTime(from: 2700, overKm: 10, toKm: 21.0975) - 2700 * pow(2.10975, 1.06)) < 1e-9)
    #expect(abs(riegelTime(from: 1200, overKm: 5, toKm: 42.195) - 1200 * exp(1.06 * log(42.195 / 5))) < 1e-6)
    #expect(riegelTime(from: 2700, overKm: 10, toKm: 10) == 2700)
    #expect(riegelTime(from: 0, overKm: 10, toKm: 5).isNaN)
  }

  @Test(arguments: [
    ("maxStepVdot: 2", "maxStepVdot: 9", "paceUpdates.maxStepVdot"),
    ("minRaceKm: 3", "minRaceKm: 0.4", "paceUpdates.minRaceKm"),
    ("minEffortKm: 5", "minEffortKm: 0.4", "paceUpdates.minEffortKm"),
    ("minEffortKm: 5", "minEffortKm: 42", "paceUpdates.minEffortKm"),
  ])
  func brokenPaceUpdateRulesAreRefused(_ change: (String, String, String)) throws {
    let error = try #require(try baseRulesError(replacing: change.0, with: change.1), "accepted: \(change.1)")
    #expect("\(error)".contains(change.2), "\(error)")
  }
}

@Suite("Measured efforts that raise the VDOT")
struct EffortEstimateTests {
  private let since = day("2026-11-23")
  private let now = day("2027-01-31")

  private func effort(_ date: String, km: Double, seconds: Double) -> RaceEvidence {
    RaceEvidence(date: day(date), distanceKm: km, timeSeconds: seconds, isEffort: true)
  }

  @Test func baseYamlCountsEffortsFromFiveKm() {
    #expect(updates.minEffortKm == 5)
  }

  @Test func aFastEffortRaisesByTheCapAndASlowOneLowersNothing() {
    let plan = danielsVDOT(meters: 10_000, seconds: 47 * 60)  // 43.0
    // The fastest 5 km inside a run in 21:00 (about 47.7): up by the cap, with the effort as the source.
    let fast = effort("2026-12-10", km: 5, seconds: 21 * 60)
    let raised = VDOTEstimate(
      planVDOT: plan, planSource: .recentRace, races: [], efforts: [fast], since: since, now: now, rules: updates)
    #expect(abs(raised.vdot - (plan + 2)) < 1e-9, "\(raised.vdot)")
    #expect(raised.steps.first?.capped == true)
    #expect(raised.latestRace?.summary == "fastest 5 km inside the run of Thu 10 Dec, 21:00")
    #expect(
      raised.replanNote(maxStep: 2)?.worded(by: { "<\($0.label)>" })
        == "Your fastest 5 km inside the run of Thu 10 Dec says VDOT "
        + String(format: "%.1f", danielsVDOT(meters: 5000, seconds: 1260))
        + " (the plan uses 43.0): the paces move to 45.0 (at most 2.0 a run): `runmate paces` shows them, "
        + "`runmate replan <update paces>` puts them in the plan")
    // Property: whatever slower efforts follow (any pace from the estimate's down to a walk), the VDOT stays.
    for minutes in stride(from: 22.0, through: 60, by: 0.5) {
      let slow = effort("2026-12-20", km: 5, seconds: minutes * 60)
      let after = VDOTEstimate(
        planVDOT: plan, planSource: .recentRace, races: [], efforts: [fast, slow], since: since, now: now,
        rules: updates)
      #expect(after.vdot >= raised.vdot - 1e-9, "\(minutes) min lowered it to \(after.vdot)")
    }
    // A slow effort alone leaves the plan's VDOT, with the reason.
    let slow = effort("2026-12-20", km: 10, seconds: 70 * 60)
    let kept = VDOTEstimate(
      planVDOT: plan, planSource: .recentRace, races: [], efforts: [slow], since: since, now: now, rules: updates)
    #expect(kept.vdot == plan)
    #expect(kept.steps.isEmpty)
    #expect(kept.ignored.first?.reason.contains("can only raise") == true)
  }

  @Test func aShortEffortDoesNotCountAndARaceStillLowers() {
    let plan = danielsVDOT(meters: 10_000, seconds: 47 * 60)
    // A fast 1 km inside a run says little about threshold: under minEffortKm, left out.
    let kilometre = effort("2026-12-10", km: 1, seconds: 200)
    let short = VDOTEstimate(
      planVDOT: plan, planSource: .recentRace, races: [], efforts: [kilometre], since: since, now: now,
      rules: updates)
    #expect(short.vdot == plan)
    #expect(short.ignored.first?.reason.contains("too short to set training paces") == true, "\(short.ignored)")
    // A slow race is still evidence both ways: after an effort raised the estimate, it lowers it by up to the cap.
    let fast = effort("2026-12-10", km: 5, seconds: 21 * 60)
    let race = RaceEvidence(date: day("2026-12-20"), distanceKm: 10, timeSeconds: 55 * 60)
    let both = VDOTEstimate(
      planVDOT: plan, planSource: .recentRace, races: [race], efforts: [fast], since: since, now: now,
      rules: updates)
    #expect(abs(both.vdot - plan) < 1e-9, "up 2 by the effort, down 2 by the race: \(both.vdot)")
    #expect(both.steps.map(\.race.isEffort) == [false, true])
  }
}
