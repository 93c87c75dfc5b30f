import Foundation
import RunMateTestSupport
import Testing

/// `runmate report --html`: the page a runner opens, read as text from the real binary on a real database.
@Suite(.tags(.endToEnd)) struct HTMLReportTests {
  /// A database with an 8-week 10K plan ('spring'), a run for the plan, an extra run with a hostile note, and the
  /// report written with `arguments`; returns the page.
  func report(_ arguments: [String] = [], profileUnits: String? = nil) throws -> String {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    if let profileUnits {
      let profile = try runmate(["profile", "init", "alex", "--units", profileUnits], environment: env)
      #expect(profile.status == 0, "\(profile.stderr)")
    }
    let steps = [
      [
        "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04", "--now",
        "2027-01-01", "--save", "--name", "spring <script>alert(1)</script>",
      ],
      ["log", "2027-01-05", "--distance", "3.4km", "--time", "22:00", "--now", "2027-01-20"],
      ["log", "2027-01-12", "--distance", "3.5km", "--time", "22:10", "--now", "2027-01-20"],
      ["log", "2027-01-14", "--distance", "3.5km", "--time", "21:50", "--now", "2027-01-20"],
      // Both neighbours are done: a Wednesday run is extra.
      [
        "log", "2027-01-13", "--distance", "5km", "--time", "30:00", "--kind", "easy", "--note",
        "<script>alert('x')</script> & more", "--now", "2027-01-20",
      ],
    ]
    for step in steps {
      let result = try runmate(step, environment: env)
      #expect(result.status == 0, "\(step): \(result.stderr)")
    }
    let page = directory.appendingPathComponent("report.html")
    let result = try runmate(["report", "--html", page.path, "--now", "2027-01-20"] + arguments, environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    return try String(contentsOf: page, encoding: .utf8)
  }

  /// The text of every `<svg>…</svg>` on the page.
  func charts(_ html: String) -> [String] {
    html.components(separatedBy: "<svg").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
  }

  @Test func chartsHaveAxesTicksAndALabelForEveryWeek() throws {
    let html = try report()
    #expect(html.hasPrefix("<!DOCTYPE html>\n<!-- RunningMate report:"))
    let svgs = charts(html)
    #expect(svgs.count == 3)
    for svg in svgs {
      #expect(svg.contains("role=\"img\" aria-label=\""))
      #expect(svg.contains("\"><title>"), "every chart has a <title>")
      for week in 1...8 { #expect(svg.contains(">W\(week)</text>"), "week \(week) labelled") }
      #expect(svg.contains(">week of the plan (first day below)</text>"))
      #expect(svg.contains(">4 Jan</text>") && svg.contains(">22 Feb</text>"), "first days of the weeks")
      // Tick marks on the value axis: at least three labelled values.
      #expect(svg.components(separatedBy: "text-anchor=\"end\"").count - 1 >= 3)
    }
    #expect(svgs[0].contains(">km per week</text>") && svgs[0].contains(">0</text>"))
    #expect(svgs[1].contains("rotate(-90") && svgs[1].contains(">km</text>"))
    #expect(svgs[2].contains(">pace, min/km</text>"))
    #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
  }

  /// The report tells fitness, fatigue and form as `progress` does (issue 24), as information.
  @Test func theReportCarriesFitnessFatigueAndForm() throws {
    let html = try report()
    let line = try #require(
      html.components(separatedBy: "\n").first { $0.hasPrefix("<p class=\"stats\">Load: fitness ") },
      "\(html.prefix(900))")
    #expect(line.contains(" · fatigue ") && line.contains(" · form ") && line.contains(" a week"), "\(line)")
    #expect(line.contains("information, not a rule"))
  }

  @Test func pacesAreMinutesAndSecondsWithTheUnit() throws {
    let html = try report()
    let pace = charts(html)[2]
    let ticks = try Regex(#">\d{1,2}:\d\d</text>"#)
    #expect(pace.matches(of: ticks).count >= 3, "m:ss tick labels")
    // Week 2: 3.5 km in 22:10, 3.5 km in 21:50 and 5 km in 30:00 → 74:00 / 12 km = 6:10/km.
    #expect(pace.contains("<title>W2: average easy pace 6:10/km</title>"))
    #expect(html.contains("✓ ran 3.4 km · 6:28/km"))
  }

  @Test func aLegendExplainsEveryColour() throws {
    let html = try report()
    for text in ["planned", "done for the plan", "extra runs", "planned longest run", "longest run done"] {
      #expect(html.contains("></i>\(text)</span>"), "legend: \(text)")
    }
    for (state, text) in [("done", "done"), ("missed", "missed"), ("extra", "extra run only"), ("today", "today")] {
      #expect(html.contains("<i class=\"sw \(state)\"></i>\(text)</span>"), "calendar legend: \(state)")
    }
    #expect(html.contains("<td class=\"today\"><small>20 Jan</small>"))
    #expect(html.contains("<td class=\"missed\"><small>7 Jan</small>"))
  }

  @Test func anExtraRunIsShownInTheCalendarAndTheVolumeChart() throws {
    let html = try report()
    #expect(html.contains("<td class=\"extra\"><small>13 Jan</small><br><span class=\"x\">+ extra 5 km · 6:00/km"))
    #expect(charts(html)[0].contains("<title>W2, Mon 11 Jan: extra runs 5 km</title>"))
    #expect(html.contains("· 1 extra run</p>"))
  }

  @Test func runnerTextIsEscaped() throws {
    let html = try report()
    #expect(!html.contains("<script"))
    #expect(html.contains("<h1>spring &lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
    #expect(html.contains("<title>spring &lt;script&gt;alert(1)&lt;/script&gt; · RunningMate</title>"))
    #expect(html.contains("title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more\""))
  }

  @Test(arguments: [(["--units", "mi"], nil), ([], "mi")] as [([String], String?)])
  func inMilesTheNumbersAreMiles(arguments: [String], profileUnits: String?) throws {
    let html = try report(arguments, profileUnits: profileUnits)
    #expect(!html.contains(" km") && !html.contains("/km") && !html.contains(">km"), "no kilometres left")
    #expect(html.contains(">mi per week</text>"))
    #expect(html.contains("Race: 10K 6.2 mi"))
    #expect(html.contains("+ extra 3.1 mi · 9:39/mi"))  // 5 km in 30:00
    #expect(html.contains("<title>W2: average easy pace 9:55/mi</title>"))  // 6:10/km
    #expect(html.contains("<title>W2, Mon 11 Jan: extra runs 3.1 mi</title>"))
  }

  @Test func unknownUnitsAreOneLineAndWriteNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("report.html")
    let result = try runmate(
      ["report", "--html", page.path, "--units", "furlong"],
      environment: ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("runmate: --units") && result.stderr.contains("km, mi"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: page.path))
  }
}
