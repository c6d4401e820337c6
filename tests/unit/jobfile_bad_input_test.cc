// Diagnostics for bad job-file input (issue 6): binary bytes never reach the
// terminal, a huge line is not echoed whole, and the caret still points at the
// column. The end-to-end catalogue is tests/e2e/bad_input.sh.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "jobfile/lexer.h"
#include "jobfile/parser.h"
#include "test_util.h"

namespace iobench::jobfile {
namespace {

std::string LexError(const std::string& content) {
  auto r = Lex(content, "f.fio");
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.status().message();
}

TEST(JobfileBadInputTest, ControlBytesAreABinaryFile) {
  EXPECT_EQ(LexError("[a]\nbs\x01=4k\n"),
            "f.fio:2:3: control character in job file (is this a binary file?)\nbs?=4k\n  ^");
  EXPECT_EQ(LexError(std::string("[a]\nbs=4k\0\n", 10)),
            "f.fio:2:6: NUL byte in job file (is this a binary file?)\nbs=4k?\n     ^");
}

// fio accepts control characters in comments (a colour escape in `# ...`);
// iobench refused the whole file. A NUL too: fio runs `size=64k ; x<NUL>y`,
// and iobench refused the file as binary.
TEST(JobfileBadInputTest, ControlBytesInCommentsAreAccepted) {
  auto r = Lex("# \x1b[31mred\x1b[0m\n[a]\nbs=4k ; \x07 bell\n", "f.fio");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->size(), 2u);
  const std::string nuls("# x\0y\n[a]\n; \0\nsize=64k ; x\0y\nbs=4k#\0\n", 37);
  r = Lex(nuls, "f.fio");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[1].value, "64k");
  EXPECT_EQ((*r)[2].value, "4k");
}

// Outside a comment a NUL still marks a binary file, before the comment
// (`size=64k<NUL> ; x`) as in a value, and a file of zeros (one long line)
// is a binary file rather than a line that is too long.
TEST(JobfileBadInputTest, NulOutsideACommentIsABinaryFile) {
  EXPECT_EQ(LexError(std::string("[a]\nsize=64k\0 ; x\n", 18)),
            "f.fio:2:9: NUL byte in job file (is this a binary file?)\nsize=64k? ; x\n        ^");
  EXPECT_EQ(LexError(std::string("[a]\ndescription=\"a\0;b\"\n", 23)).substr(0, 70),
            "f.fio:2:15: NUL byte in job file (is this a binary file?)\ndescription=");
  const std::string zeros = LexError(std::string(1 << 20, '\0'));
  EXPECT_EQ(zeros.substr(0, zeros.find('\n')),
            "f.fio:1:1: NUL byte in job file (is this a binary file?)");
  EXPECT_LT(zeros.size(), 400u);
}

TEST(JobfileBadInputTest, TabsFormFeedsAndCarriageReturnsAreText) {
  auto r = Lex("[a]\r\n\tbs=4k\f\r\n", "f.fio");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
}

// fio trims with isspace(): a CR at the end of a line (`size=1m\r\r\n`,
// `size=1m\r \n`) or next to '=' is a blank there; iobench refused it as
// a control character. One inside a value is refused, naming the CR.
TEST(JobfileBadInputTest, CarriageReturnsWhereBlanksGoAreBlanks) {
  for (const char* text : {"[a]\r\r\nsize=1m\r\r\n", "[a]\nsize=1m\r \n", "[a]\n\r\n",
                           "[a]\n\rsize\r=1m ; c\r\n", "[a]\r\ninclude\rx.inc\r\n"}) {
    auto r = Lex(text, "f.fio");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_FALSE(r->empty());
    if (r->back().kind == LexEntry::Kind::kOption) {
      EXPECT_EQ(r->back().key, "size");
      EXPECT_EQ(r->back().value, "1m");
    } else if (r->back().kind == LexEntry::Kind::kInclude) {
      EXPECT_EQ(r->back().key, "x.inc");
    }
  }
  EXPECT_EQ(LexError("[a]\nsize=1\rm\r\n")
                .rfind("f.fio:2:7: carriage return (CR) inside a name or value: fio keeps", 0),
            0u);
  EXPECT_EQ(LexError("[a]\rsize=1m\rbs=4k\r")
                .rfind("f.fio:1:4: the lines of this file end in a lone CR (classic Mac OS", 0),
            0u);
  // A binary file with a CR and no LF is a binary file first: it got the
  // lone-CR message. A NUL in a comment still leaves the CR message.
  EXPECT_EQ(LexError(std::string("\x7f"
                                 "ELF\x02\x01\x00\x00\rabc\x00",
                                 13))
                .rfind("f.fio:1:7: NUL byte in job file (is this a binary file?)", 0),
            0u);
  EXPECT_EQ(LexError(std::string("[a]\rsize=1m ; x\0y\rbs=4k\r", 24))
                .rfind("f.fio:1:4: the lines of this file end in a lone CR", 0),
            0u);
}

TEST(JobfileBadInputTest, ATenMegabyteLineIsNotEchoedWhole) {
  const std::string msg = LexError("[a]\ndescription=" + std::string(10 << 20, 'x') + "\n");
  EXPECT_EQ(msg.substr(0, msg.find('\n')), "f.fio:2:1: line longer than 8192 bytes");
  EXPECT_LT(msg.size(), 400u);
  EXPECT_NE(msg.find("description=xxx"), std::string::npos);
  EXPECT_NE(msg.find("...\n^"), std::string::npos) << msg;
}

// The limit held for the line as written only: `description=${BIG}` with
// BIG of 8200 bytes ran and copied them into the report. fio 3.33 refuses
// a line longer than 8192 bytes after substitution ("failed parsing
// description=${BIG}") and takes one of 8192 (description= and 8180).
TEST(JobfileBadInputTest, TheLineLimitHoldsAfterSubstitution) {
  const auto parse = [](const std::string& line, size_t n) {
    setenv("IOB_TEST_BIG", std::string(n, 'x').c_str(), 1);
    auto r = ParseJobText("[a]\nioengine=null\nsize=1m\n" + line + "\n", "f.fio", "/tmp");
    unsetenv("IOB_TEST_BIG");
    return r;
  };
  auto r = parse("description=${IOB_TEST_BIG}", 8181);
  ASSERT_FALSE(r.ok());
  const std::string msg = r.status().message();
  EXPECT_EQ(msg.substr(0, msg.find('\n')),
            "f.fio:4:13: line longer than 8192 bytes after substitution (8193 bytes): "
            "${IOB_TEST_BIG} brings 8181 bytes and makes it too long (fio refuses it too)");
  EXPECT_TRUE(parse("description=${IOB_TEST_BIG}", 8180).ok());
  // fio measures the option (key=value), not the line: blanks before it and
  // a comment after it do not count (fio 3.33 runs both).
  EXPECT_TRUE(parse(std::string(35, ' ') + "description=${IOB_TEST_BIG}", 8180).ok());
  EXPECT_TRUE(parse("description=${IOB_TEST_BIG}   # a comment on the line", 8180).ok());
  // A variable that brings the whole option counts the same way.
  r = parse("${IOB_TEST_BIG}", 8193);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      r.status().message().rfind("f.fio:4:1: line longer than 8192 bytes after substitution", 0),
      0u);
}

TEST(JobfileBadInputTest, BytesThatAreNotUtf8ArePrintedAsQuestionMarks) {
  EXPECT_EQ(FormatDiagnostic("f.fio", 3, 4, "option '\xff\xfe' is odd", "ab=\xff\xfe"),
            "f.fio:3:4: option '?"
            "?' is odd\nab=?"
            "?\n   ^");
  // Valid UTF-8 stays as it is.
  EXPECT_EQ(FormatDiagnostic("f.fio", 1, 0, "caf\xc3\xa9", ""), "f.fio:1: caf\xc3\xa9");
}

// A Latin-1 job name ran the whole job, then the JSON report threw
// ("internal error: incomplete UTF-8 string") and the results were lost.
// Names and values must be UTF-8; comments may be in any encoding.
TEST(JobfileBadInputTest, NamesAndValuesMustBeUtf8CommentsNeedNot) {
  EXPECT_EQ(LexError("[caf\xe9]\nsize=1m\n"),
            "f.fio:1:5: byte 0xE9 is not UTF-8 text; names and values go into the reports, "
            "which are UTF-8 (save the job file as UTF-8)\n[caf?]\n    ^");
  EXPECT_NE(LexError("[a]\ndescription=caf\xe9 ; ok\n").find("f.fio:2:16: byte 0xE9"),
            std::string::npos);
  auto r = Lex("; caf\xe9\n[a] # na\xefve\nsize=1m ; \xff\ndescription=caf\xc3\xa9\n", "f.fio");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  ParseInput in;
  // ... also when an environment variable brings the bytes.
  setenv("IOB_TEST_LATIN1", "caf\xe9", 1);
  in.cli_job_args = {"--name=a", "--description=${IOB_TEST_LATIN1}"};
  auto env = ParseJobs(in);
  unsetenv("IOB_TEST_LATIN1");
  ASSERT_FALSE(env.ok());
  EXPECT_EQ(env.status().message().rfind(
                "command line: option 'description' after substitution: byte 0xE9 is not UTF-8 "
                "text",
                0),
            0u)
      << env.status().message();
  in.cli_job_args = {"--name=caf\xe9", "--size=1m"};
  auto p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "command line: byte 0xE9 is not UTF-8 text; names and values go into the reports, "
            "which are UTF-8\n--name=caf?\n          ^");
}

// `[disk#1]` was refused as "missing ']'", though the ']' is there.
TEST(JobfileBadInputTest, CommentCharacterInASectionName) {
  EXPECT_EQ(LexError("[disk#1]\nsize=1m\n"),
            "f.fio:1:6: '#' starts a comment, so it cannot be part of a section name\n[disk#1]\n"
            "     ^");
  EXPECT_EQ(LexError("[a;b]\n").substr(0, 70),
            "f.fio:1:3: ';' starts a comment, so it cannot be part of a section nam");
  EXPECT_EQ(LexError("[a ; comment\n"),
            "f.fio:1:3: missing ']' after section name\n[a ; comment\n  ^");
}

// `[ global ]` was trimmed into a global section and `[ k ]` into a job
// "k"; fio runs a job " global " and names the other " k " (its file names
// and --section). `[global ]` is global in both tools.
TEST(JobfileBadInputTest, BlanksInsideSectionBrackets) {
  EXPECT_EQ(LexError("[ global ]\nsize=1m\n"),
            "f.fio:1:2: blank inside the brackets of a section name: fio names this job ' global "
            "', blanks included, not a global section; write [global]\n[ global ]\n ^");
  EXPECT_EQ(LexError("[\tk]\n").substr(0, 79),
            "f.fio:1:2: blank inside the brackets of a section name: fio names this job '\tk'");
  EXPECT_EQ(LexError("[k ]\n"),
            "f.fio:1:3: blank inside the brackets of a section name: fio names this job 'k ', "
            "blanks included; write [k]\n[k ]\n  ^");
  auto r = Lex("[global ]\n[my job]\n", "f.fio");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->at(0).key, "global");
  EXPECT_EQ(r->at(1).key, "my job");
}

// `[c]d]` said only "bad section name 'c]d'"; fio runs a job named "c]d".
// The error says why and points at the bracket.
TEST(JobfileBadInputTest, BracketInsideASectionName) {
  EXPECT_EQ(LexError("[c]d]\nsize=1m\n"),
            "f.fio:1:3: ']' inside a section name (fio would name this job 'c]d'); a bracket "
            "there is most likely a typo, so iobench refuses it\n[c]d]\n  ^");
  EXPECT_EQ(LexError("[[a]\n").substr(0, 16), "f.fio:1:2: '[' i");
}

// `[a] x` was reported as "missing ']' after section name", pointing past the x.
TEST(JobfileBadInputTest, TextAfterASectionHeader) {
  EXPECT_EQ(LexError("[a] x y\nsize=1m\n"),
            "f.fio:1:5: unexpected 'x y' after the section header (only a comment may follow "
            "']')\n[a] x y\n    ^");
  auto r = Lex("[a] # note\n[b]\t; note\n", "f.fio");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
}

// A control character is refused in a job file and in what a ${VAR} brings;
// on the command line `--name=$'a\nb'` split the terse record across two
// lines and `--filename=$'x\ny'` made a file with a newline in its name.
TEST(JobfileBadInputTest, ControlCharactersInCommandLineValues) {
  ParseInput in;
  in.cli_job_args = {"--name=a\nb", "--ioengine=null", "--size=64k"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "command line: option 'name': control character (newline) in the value: it is "
            "refused, as it is in a job file\n--name=a?b\n        ^");
  in.cli_job_args = {"--name=a", "-filename", "x\x1by"};
  r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "command line: option 'filename': control character (byte 27) in the value: it is "
            "refused, as it is in a job file\n-filename x?y\n           ^");
  in.cli_job_args = {"--name=a", "--b\rs=4k"};
  r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().substr(0, 79),
            "command line: option 'b?s': control character (byte 13) in the name: it is refu");
  // A tab is text, as in a job file.
  in.cli_job_args = {"--name=a\tb", "--ioengine=null", "--size=64k"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).name, "a\tb");
}

// An invisible character printed as nothing (`unknown option 'bs'` for bs
// and a zero-width space, with no suggestion), and a no-break space as a
// plain one: they are written as \uXXXX, and the suggestion sees through them.
TEST(JobfileBadInputTest, InvisibleCharactersAreShownEscaped) {
  ParseInput in;
  in.cli_job_args = {"--name=a", "--bs\u200b=4k"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().substr(0, r.status().message().find('\n')),
            "command line: unknown option 'bs\\u200b' (it holds an invisible character); did "
            "you mean 'bs'?");
  // A byte-order mark in the middle of a file (two files joined with cat).
  auto bom = ParseJobText("[a]\nsize=1m\n\xef\xbb\xbfsize=2m\n", "f.fio", ".");
  ASSERT_FALSE(bom.ok());
  EXPECT_EQ(bom.status().message().substr(0, bom.status().message().find('\n')),
            "f.fio:3:1: unknown option '\\ufeffsize' (it holds an invisible character); did "
            "you mean 'size'?");
  auto nbsp = ParseJobText("[a]\nsize=1m\xc2\xa0\n", "f.fio", ".");
  ASSERT_FALSE(nbsp.ok());
  EXPECT_NE(nbsp.status().message().find("bad size unit 'm\\u00a0'"), std::string::npos)
      << nbsp.status().message();
  EXPECT_EQ(FormatDiagnostic("f.fio", 1, 0, "caf\xc3\xa9 \xf3\xa0\x80\x81", ""),
            "f.fio:1: caf\xc3\xa9 \\U000e0001");
}

// Hints for names that are not job options. A command-line option in a job
// file got "unknown option 'eta'; did you mean 'ba'?" (or none); `INCLUDE
// x` got "expected '=' between option 'INCLUDE' and its value" (fio refuses
// the upper case too: "Bad option <INCLUDE x>"); a full-width '=' (U+FF1D)
// made `bs＝8k` one unknown name with no word on why.
TEST(JobfileBadInputTest, HintsForNamesThatAreNoJobOptions) {
  const auto first_line = [](const std::string& body) {
    auto r = ParseJobText("[a]\n" + body + "\n", "f.fio", "/tmp");
    EXPECT_FALSE(r.ok()) << body;
    const std::string m = r.ok() ? std::string() : r.status().message();
    return m.substr(0, m.find('\n'));
  };
  EXPECT_EQ(first_line("eta=never"),
            "f.fio:2:1: option 'eta' is a command-line option, not a job option: give it to "
            "iobench as --eta=never");
  EXPECT_EQ(first_line("readonly"),
            "f.fio:2:1: option 'readonly' is a command-line option, not a job option: give it to "
            "iobench as --readonly");
  EXPECT_EQ(first_line("minimal"),
            "f.fio:2:1: option 'minimal' is a command-line option, not a job option: give it to "
            "iobench as --minimal");
  EXPECT_EQ(first_line("output=out file.txt"),
            "f.fio:2:1: option 'output' is a command-line option, not a job option: give it to "
            "iobench as '--output=out file.txt'");
  EXPECT_EQ(first_line("section="),
            "f.fio:2:1: option 'section' is a command-line option, not a job option: give it to "
            "iobench as --section=VALUE");
  EXPECT_EQ(first_line("status_interval=1"),
            "f.fio:2:1: option 'status_interval' is a command-line option, not a job option: "
            "give it to iobench as --status-interval=1");
  EXPECT_EQ(first_line("debug=io"),
            "f.fio:2:1: option 'debug' is a command-line option, not a job option (fio's "
            "--debug, which iobench does not support)");
  EXPECT_EQ(first_line("INCLUDE inc/a.inc"),
            "f.fio:2:1: unknown option 'INCLUDE': fio's include is written in lower case (fio "
            "refuses 'INCLUDE' too); write 'include inc/a.inc'");
  EXPECT_EQ(first_line("Include=inc/a.inc"),
            "f.fio:2:1: unknown option 'Include': fio's include is written in lower case (fio "
            "refuses 'Include' too); write 'include=inc/a.inc'");
  EXPECT_EQ(first_line("bs\uff1d8k"),
            "f.fio:2:3: unknown option 'bs\uff1d8k' ('\uff1d' (U+FF1D) is not the ASCII '='); "
            "did you mean 'bs=8k'?");
  EXPECT_EQ(first_line("bs \uff1d 8k"),
            "f.fio:2:4: expected '=' between option 'bs' and its value ('\uff1d' (U+FF1D) is not "
            "the ASCII '=')");
  // On the command line too.
  ParseInput in;
  in.cli_job_args = {"--name=a", "--bs\uff1d8k"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().substr(0, r.status().message().find('\n')),
            "command line: unknown option 'bs\uff1d8k' ('\uff1d' (U+FF1D) is not the ASCII '='); "
            "did you mean 'bs=8k'?");
  // A near typo of a job option is still suggested as before.
  EXPECT_EQ(first_line("bz=1"), "f.fio:2:1: unknown option 'bz'; did you mean 'bs'?");
}

TEST(JobfileBadInputTest, ALongLineShowsAWindowAroundTheColumn) {
  std::string line = std::string(1000, 'a') + "X" + std::string(1000, 'b');
  const std::string msg = FormatDiagnostic("f.fio", 1, 1001, "here", line);
  // "..." + 160 bytes from column 922 + "...", and the caret under the X.
  const std::string shown = "..." + line.substr(921, 160) + "...";
  EXPECT_EQ(msg, "f.fio:1:1001: here\n" + shown + "\n" + std::string(3 + 79, ' ') + "^");
  EXPECT_EQ(shown[3 + 79], 'X');
}

// fio 3.33 matches a keyword value as its man page writes it: rw=RANDREAD,
// verify=MD5, cpumode=QSORT, replay_skip=WRITE... are "failed parsing"
// (exit 1). iobench took any case, so a job file that fio refuses ran.
// Each is refused naming the option, file and line, with the spelling it
// takes; sizes and times keep their suffixes in either case (bs=4K, as fio).
TEST(JobfileBadInputTest, KeywordValuesAreCaseSensitiveAsInFio) {
  struct Case {
    const char* setting;
    const char* hint;
  };
  for (const Case& c :
       {Case{"rw=RANDREAD", "did you mean 'randread'?"},
        Case{"readwrite=Write", "did you mean 'write'?"},
        Case{"rw_sequencer=IDENTICAL", "did you mean 'identical'?"},
        Case{"verify=MD5", "did you mean 'md5'?"}, Case{"clocksource=CPU", "did you mean 'cpu'?"},
        Case{"file_service_type=Random:2", "did you mean 'random:2'?"},
        Case{"random_distribution=ZIPF:1.2", "did you mean 'zipf:1.2'?"},
        Case{"fallocate=NONE", "did you mean 'none'?"},
        Case{"exit_what=ALL", "did you mean 'all'?"},
        Case{"random_generator=LFSR", "did you mean 'lfsr'?"},
        Case{"fadvise_hint=RANDOM", "did you mean 'random'?"},
        Case{"rate_process=POISSON", "did you mean 'poisson'?"},
        Case{"cpus_allowed_policy=SPLIT", "did you mean 'split'?"},
        Case{"unified_rw_reporting=Mixed", "did you mean 'mixed'?"},
        Case{"sync=DSYNC", "did you mean 'dsync'?"},
        Case{"sync_file_range=WRITE", "did you mean 'write'?"},
        Case{"steadystate=IOPS:1%", "did you mean 'iops:1%'?"},
        Case{"mem=MMAP", "did you mean 'mmap'?"},
        // only the keyword: a path after it keeps its case
        Case{"mem=MMAP:/tmp/Foo", "did you mean 'mmap:/tmp/Foo'?"},
        Case{"replay_skip=WRITE", "did you mean 'write'?"},
        Case{"ioengine=NULL", "did you mean 'null'?"}}) {
    auto r = testing::ParseNullJob(c.setting);
    ASSERT_FALSE(r.ok()) << c.setting;
    const std::string& m = r.status().message();
    const std::string key = std::string(c.setting).substr(0, std::string(c.setting).find('='));
    EXPECT_EQ(m.rfind("t.fio:4:", 0), 0u) << m;
    EXPECT_NE(m.find("option '" + key + "'"), std::string::npos) << m;
    EXPECT_NE(m.find(c.hint), std::string::npos) << m;
  }
  // The engine options, with their engine.
  for (const char* job : {"[c]\nioengine=cpuio\ncpuload=10\ncpumode=QSORT\n",
                          "[s]\nioengine=filestat\nsize=1m\nstat_type=LSTAT\n"}) {
    auto r = ParseJobText(job, "t.fio", "/tmp");
    ASSERT_FALSE(r.ok()) << job;
    EXPECT_NE(r.status().message().find("t.fio:4:"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("keywords are case-sensitive"), std::string::npos)
        << r.status().message();
  }
  // What fio takes in any case still parses: size and time suffixes, a
  // hex pattern, a keyword's size or count after ':'.
  for (const char* ok :
       {"bs=4K", "size=1M", "runtime=1S", "rate=1M,2K", "offset=1K", "buffer_pattern=0XAA",
        "rw=read:4K", "rw=randread:8", "random_distribution=zipf:1.2", "verify=crc32c-intel"}) {
    auto r = testing::ParseNullJob(ok);
    EXPECT_TRUE(r.ok()) << ok << ": " << r.status().message();
  }
}

}  // namespace
}  // namespace iobench::jobfile
