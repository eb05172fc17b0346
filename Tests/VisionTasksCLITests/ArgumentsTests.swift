import Testing

@testable import VisionTasksCLI

@Suite struct ArgumentsTests {
    @Test func parsesFlagsOptionsAndPositionals() throws {
        let parsed = try Arguments(
            ["a.png", "--json", "--threads", "2", "--fps=12.5", "b.png", "--input", "x", "--input", "y"],
            flags: ["json"], options: ["threads", "fps", "input"])
        #expect(parsed.positionals == ["a.png", "b.png"])
        #expect(parsed.flag("json"))
        #expect(try parsed.integer("threads", in: 1...64) == 2)
        #expect(try parsed.number("fps") == 12.5)
        #expect(parsed.values("input") == ["x", "y"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try Arguments(["--", "--json"], flags: ["json"], options: [])
        #expect(parsed.positionals == ["--json"])
        #expect(!parsed.flag("json"))
    }

    @Test func rejectsUnknownMissingAndMalformedValues() {
        #expect(throws: CLIError.self) { try Arguments(["--nope"], flags: [], options: []) }
        #expect(throws: CLIError.self) { try Arguments(["--threads"], flags: [], options: ["threads"]) }
        #expect(throws: CLIError.self) { try Arguments(["--json=1"], flags: ["json"], options: []) }
        #expect(throws: CLIError.self) { try Arguments(["-x"], flags: [], options: []) }
        #expect(throws: CLIError.self) {
            try Arguments(["--threads", "zero"], flags: [], options: ["threads"]).integer("threads")
        }
        #expect(throws: CLIError.self) {
            try Arguments(["--threads", "0"], flags: [], options: ["threads"]).integer("threads", in: 1...8)
        }
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let parsed = try Arguments(["--offset", "-3", "-1.5"], flags: [], options: ["offset"])
        #expect(parsed.value("offset") == "-3")
        #expect(parsed.positionals == ["-1.5"])
    }
}

@Suite struct JSONValueTests {
    @Test func keepsKeyOrderAndEscapes() {
        let value = JSONValue.object([
            ("b", .int(1)), ("a", .string("quote \" backslash \\ newline \n tab \t bell \u{07}")),
            ("f", .float(0.1)), ("g", .float(2)), ("n", .float(.nan)), ("z", .null), ("t", .bool(true)),
            ("list", .array([.double(1e-7), .int(-4)])),
        ])
        #expect(
            value.serialized()
                == #"{"b":1,"a":"quote \" backslash \\ newline \n tab \t bell \u0007","f":0.1,"g":2,"#
                + #""n":null,"z":null,"t":true,"list":[1e-07,-4]}"#
        )
    }
}
