//! Output safety of `pack`, `unpack` and `pgn convert`, through the binary: an output that is an
//! input is refused; FIFOs and devices are written as streams and stay what they are; symbolic
//! links are followed and stay links; temporary files go away on errors and signals; a closed
//! standard output ends quietly.

#![cfg(unix)]

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const GAMES: &str = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n\
                     [Event \"two\"]\n\n1. d4 d5 2. c4 e6 {a comment} *\n\n\
                     [Event \"three\"]\n\n1. c4 Nf6 2. Nc3 g6 1-0\n";

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_chessbits")
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(exe())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A directory with `a.pgn` (three games) and `x.cbits` (them, packed).
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.pgn"), GAMES).unwrap();
    let out = run_in(dir.path(), &["pack", "a.pgn", "-o", "x.cbits"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

/// What `args` writes to standard output (the reference for the other kinds of output).
fn stdout_of(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = run_in(dir, args);
    assert!(out.status.success(), "{}", stderr(&out));
    out.stdout
}

fn temp_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".chessbits-") && name.ends_with(".tmp"))
        .collect()
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = setup();
    let d = dir.path();
    let archive = fs::read(d.join("x.cbits")).unwrap();
    std::os::unix::fs::symlink("a.pgn", d.join("link.pgn")).unwrap();
    fs::hard_link(d.join("a.pgn"), d.join("hard.pgn")).unwrap();
    fs::create_dir(d.join("games")).unwrap();
    fs::write(d.join("games/g.pgn"), GAMES).unwrap();
    let absolute = d.join("a.pgn");
    let cases: &[(&[&str], &str, &str)] = &[
        (&["pack", "a.pgn", "-o", "a.pgn"], "a.pgn", "the input a.pgn"),
        (&["pack", "./a.pgn", "-o", "a.pgn"], "a.pgn", "the input ./a.pgn"),
        (&["pack", s(&absolute), "-o", "a.pgn"], "a.pgn", "a.pgn"),
        (&["pack", "a.pgn", "-o", "hard.pgn"], "hard.pgn", "the input a.pgn"),
        (&["pack", "a.pgn", "-o", "link.pgn"], "link.pgn", "the input a.pgn"),
        (&["pack", "link.pgn", "-o", "a.pgn"], "a.pgn", "the input link.pgn"),
        (&["pack", "x.cbits", "a.pgn", "-o", "a.pgn"], "a.pgn", "the input a.pgn"),
        (
            &["pack", "games", "-o", "games/g.pgn"],
            "games/g.pgn",
            "the input games/g.pgn",
        ),
        (&["unpack", "x.cbits", "-o", "x.cbits"], "x.cbits", "the input x.cbits"),
        (
            &["unpack", "./x.cbits", "-o", "x.cbits"],
            "x.cbits",
            "the input ./x.cbits",
        ),
        (&["pgn", "convert", "a.pgn", "-o", "a.pgn"], "a.pgn", "the input a.pgn"),
        (
            &["pgn", "convert", "a.pgn", "-o", "hard.pgn"],
            "hard.pgn",
            "the input a.pgn",
        ),
    ];
    for (args, output, input) in cases {
        let out = run_in(d, args);
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        assert!(
            message.contains(&format!("{output}: the output is the same file as")) && message.contains(input),
            "{args:?}: {message}"
        );
        assert_eq!(fs::read_to_string(d.join("a.pgn")).unwrap(), GAMES, "{args:?}");
        assert_eq!(fs::read_to_string(d.join("games/g.pgn")).unwrap(), GAMES, "{args:?}");
        assert_eq!(fs::read(d.join("x.cbits")).unwrap(), archive, "{args:?}");
        assert!(fs::symlink_metadata(d.join("link.pgn"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(temp_files(d).is_empty(), "{args:?}");
    }

    // Standard input that is the output file, and standard output that is an input file.
    let out = Command::new(exe())
        .args(["pack", "-", "-o", "a.pgn"])
        .current_dir(d)
        .stdin(fs::File::open(d.join("a.pgn")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a.pgn: the output is the same file as standard input"),
        "{}",
        stderr(&out)
    );
    let appended = fs::OpenOptions::new().append(true).open(d.join("a.pgn")).unwrap();
    let out = Command::new(exe())
        .args(["pgn", "convert", "a.pgn"])
        .current_dir(d)
        .stdout(appended)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("standard output: the output is the same file as the input a.pgn"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(d.join("a.pgn")).unwrap(), GAMES);

    // Another file is fine, and so is a character device as input and output.
    let out = run_in(d, &["pack", "a.pgn", "-o", "b.cbits"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_in(d, &["pack", "/dev/null", "-o", "/dev/null"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Reads a FIFO to its end on a thread.
fn read_fifo(path: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        fs::File::open(path).unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    })
}

#[test]
fn fifos_are_written_as_streams_and_stay_fifos() {
    let dir = setup();
    let d = dir.path();
    let fifo = d.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let cases: &[(&[&str], &[&str])] = &[
        (&["pack", "a.pgn", "-o", "fifo"], &["pack", "a.pgn", "-o", "-"]),
        (&["unpack", "x.cbits", "-o", "fifo"], &["unpack", "x.cbits", "-o", "-"]),
        (
            &["pgn", "convert", "a.pgn", "--to", "uci", "-o", "fifo"],
            &["pgn", "convert", "a.pgn", "--to", "uci"],
        ),
    ];
    for (args, reference) in cases {
        let reader = read_fifo(&fifo);
        let out = run_in(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let received = reader.join().unwrap();
        assert!(!received.is_empty());
        assert_eq!(received, stdout_of(d, reference), "{args:?}");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "{args:?}");
        assert!(temp_files(d).is_empty(), "{args:?}");
    }
    // A symbolic link to the FIFO: the FIFO is written, the link stays.
    std::os::unix::fs::symlink("fifo", d.join("to-fifo")).unwrap();
    let reader = read_fifo(&fifo);
    let out = run_in(d, &["pack", "a.pgn", "-o", "to-fifo"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap(), fs::read(d.join("x.cbits")).unwrap());
    assert!(fs::symlink_metadata(d.join("to-fifo"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn devices_are_written_in_place_and_stay_devices() {
    let dir = setup();
    let d = dir.path();
    for args in [
        &["pack", "a.pgn", "-o", "/dev/null"][..],
        &["unpack", "x.cbits", "-o", "/dev/null"],
        &["pgn", "convert", "a.pgn", "-o", "/dev/null"],
    ] {
        let out = run_in(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    }
    // /dev/stdout (a link to /proc/self/fd/1, here a pipe) is written as a stream.
    if Path::new("/dev/stdout").exists() {
        let archive = fs::read(d.join("x.cbits")).unwrap();
        assert_eq!(stdout_of(d, &["pack", "a.pgn", "-o", "/dev/stdout"]), archive);
    }
    if !Path::new("/dev/full").exists() {
        eprintln!("note: no /dev/full; its checks skipped");
        return;
    }
    for args in [
        &["pack", "a.pgn", "-o", "/dev/full"][..],
        &["unpack", "x.cbits", "-o", "/dev/full"],
        &["pgn", "convert", "a.pgn", "-o", "/dev/full"],
    ] {
        let out = run_in(d, args);
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        assert!(
            message.contains("/dev/full: No space left on device"),
            "{args:?}: {message}"
        );
        assert!(fs::metadata("/dev/full").unwrap().file_type().is_char_device());
    }
}

#[test]
fn symbolic_links_are_followed_and_stay_links() {
    let dir = setup();
    let d = dir.path();
    let archive = fs::read(d.join("x.cbits")).unwrap();
    let text = stdout_of(d, &["unpack", "x.cbits", "-o", "-"]);
    let is_link = |name: &str| fs::symlink_metadata(d.join(name)).unwrap().file_type().is_symlink();

    // A link to an existing file, a chain of two links, a link from another directory.
    fs::write(d.join("real.cbits"), "old").unwrap();
    std::os::unix::fs::symlink("real.cbits", d.join("link")).unwrap();
    std::os::unix::fs::symlink("link", d.join("chain")).unwrap();
    fs::create_dir(d.join("sub")).unwrap();
    std::os::unix::fs::symlink("../real.cbits", d.join("sub/up")).unwrap();
    for output in ["link", "chain", "sub/up"] {
        fs::write(d.join("real.cbits"), "old").unwrap();
        let out = run_in(d, &["pack", "a.pgn", "-o", output]);
        assert!(out.status.success(), "{output}: {}", stderr(&out));
        assert_eq!(fs::read(d.join("real.cbits")).unwrap(), archive, "{output}");
        for link in ["link", "chain", "sub/up"] {
            assert!(is_link(link), "{output}: {link} is still a link");
        }
        assert!(temp_files(d).is_empty() && temp_files(&d.join("sub")).is_empty());
    }

    // Dangling links: the file they name is created, relative to the link's directory.
    std::os::unix::fs::symlink("../made.pgn", d.join("sub/dangling")).unwrap();
    std::os::unix::fs::symlink("sub/dangling", d.join("to-dangling")).unwrap();
    let out = run_in(d, &["unpack", "x.cbits", "-o", "to-dangling"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read(d.join("made.pgn")).unwrap(), text);
    assert!(is_link("sub/dangling") && is_link("to-dangling"));
    let absolute = d.join("absolute.pgn");
    std::os::unix::fs::symlink(&absolute, d.join("sub/abs")).unwrap();
    let out = run_in(d, &["pgn", "convert", "a.pgn", "-o", "sub/abs"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read(&absolute).unwrap(), stdout_of(d, &["pgn", "convert", "a.pgn"]));
    assert!(is_link("sub/abs"));

    // A loop is an error, not a hang; a directory is refused before any work.
    std::os::unix::fs::symlink("loop2", d.join("loop1")).unwrap();
    std::os::unix::fs::symlink("loop1", d.join("loop2")).unwrap();
    let out = run_in(d, &["pack", "a.pgn", "-o", "loop1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("loop1"), "{}", stderr(&out));
    assert!(is_link("loop1") && is_link("loop2"));
    let out = run_in(d, &["pack", "a.pgn", "-o", "sub"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("sub: is a directory"), "{}", stderr(&out));
    assert!(temp_files(d).is_empty() && temp_files(&d.join("sub")).is_empty());
}

#[test]
fn a_failed_command_leaves_no_temporary_file() {
    let dir = setup();
    let d = dir.path();
    fs::write(d.join("out.cbits"), "precious").unwrap();
    let out = run_in(d, &["pack", "a.pgn", "missing.pgn", "-o", "out.cbits"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.pgn"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(d.join("out.cbits")).unwrap(), "precious");
    assert!(temp_files(d).is_empty());
    let out = run_in(d, &["pgn", "convert", "missing.pgn", "-o", "out.cbits"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_to_string(d.join("out.cbits")).unwrap(), "precious");
    assert!(temp_files(d).is_empty());
}

/// Starts `args` with standard input a pipe that stays open (some games written to it), waits
/// for its temporary file, sends `signal` and checks that the process died by it and left
/// nothing behind.
fn interrupt(args: &[&str], signal: (&str, i32)) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("existing.out"), "precious").unwrap();
    for output in ["existing.out", "new.out"] {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-o", output]);
        let mut child = Command::new(exe())
            .args(&all)
            .current_dir(d)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(GAMES.repeat(50).as_bytes()).unwrap();
        input.flush().unwrap();
        let start = Instant::now();
        while temp_files(d).is_empty() {
            assert!(start.elapsed() < Duration::from_secs(20), "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(10));
        }
        let sent = Command::new("kill")
            .args([format!("-{}", signal.0), child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        drop(input);
        assert_eq!(status.signal(), Some(signal.1), "{all:?}: {status:?}");
        assert!(temp_files(d).is_empty(), "{all:?}: {:?}", temp_files(d));
        assert_eq!(fs::read_to_string(d.join("existing.out")).unwrap(), "precious");
        assert!(!d.join("new.out").exists(), "{all:?}");
    }
}

/// `unpack` writes through the same sink; it reads a seekable archive and is not easily kept
/// waiting, so the signal tests use `pack` and `pgn convert` reading a pipe.
#[test]
fn signals_remove_the_temporary_file() {
    for signal in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        interrupt(&["pack", "-"], signal);
    }
    interrupt(&["pgn", "convert", "-"], ("TERM", 15));
}

#[test]
fn a_closed_standard_output_ends_quietly() {
    let dir = setup();
    let d = dir.path();
    let many = GAMES.repeat(2000);
    fs::write(d.join("many.pgn"), &many).unwrap();
    let out = run_in(d, &["pack", "many.pgn", "-o", "many.cbits"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for args in [
        &["pack", "-", "-o", "-"][..],
        &["pack", "-", "-o", "-", "--block-games", "10"],
        &["pgn", "convert", "-"],
        &["unpack", "many.cbits", "-o", "-"],
    ] {
        let mut child = Command::new(exe())
            .args(args)
            .current_dir(d)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader is gone before anything is written.
        drop(child.stdout.take());
        let mut input = child.stdin.take().unwrap();
        // The child may stop reading once its output is closed.
        let _ = input.write_all(many.as_bytes());
        drop(input);
        let out = child.wait_with_output().unwrap();
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {message}");
        assert!(!message.to_lowercase().contains("pipe"), "{args:?}: {message}");
    }
}

/// Two runs started together writing the same new file, each from its own input: a file output is
/// replaced by design (no `--force` to ask for it), so both succeed as they would one after the
/// other, and the file is one of the two outputs whole, never a mix or a half, with no temporary
/// file left. For `pack`, `unpack`, `pgn filter`, `pgn convert` and `pgn positions`.
#[test]
fn two_runs_writing_one_new_file_leave_one_whole_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/pgn/shakmaty_lichess_db_1000k.pgn"
    ))
    .unwrap();
    fs::write(d.join("a.pgn"), text.repeat(2)).unwrap();
    fs::write(d.join("b.pgn"), GAMES.repeat(200)).unwrap();
    for input in ["a", "b"] {
        let out = run_in(d, &["pack", &format!("{input}.pgn"), "-o", &format!("{input}.cbits")]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let commands: [&[&str]; 5] = [
        &["pack", "{}.pgn"],
        &["unpack", "{}.cbits"],
        &["pgn", "filter", "{}.pgn"],
        &["pgn", "convert", "{}.pgn", "--to", "uci"],
        &["pgn", "positions", "{}.pgn"],
    ];
    for command in commands {
        let args = |input: &str, output: &str| -> Vec<String> {
            let mut args: Vec<String> = command.iter().map(|a| a.replace("{}", input)).collect();
            args.extend(["-o".to_string(), output.to_string()]);
            args
        };
        let references: Vec<Vec<u8>> = ["a", "b"]
            .iter()
            .map(|input| {
                let args = args(input, "ref.out");
                let out = run_in(d, &args.iter().map(String::as_str).collect::<Vec<_>>());
                assert!(out.status.success(), "{args:?}: {}", stderr(&out));
                fs::read(d.join("ref.out")).unwrap()
            })
            .collect();
        assert_ne!(references[0], references[1]);
        for attempt in 0..3 {
            let output = format!("race{attempt}.out");
            let children: Vec<_> = ["a", "b"]
                .iter()
                .map(|input| {
                    Command::new(exe())
                        .args(args(input, &output))
                        .current_dir(d)
                        .stdout(Stdio::null())
                        .stderr(Stdio::piped())
                        .spawn()
                        .unwrap()
                })
                .collect();
            for child in children {
                let out = child.wait_with_output().unwrap();
                assert!(out.status.success(), "{command:?}: {}", stderr(&out));
            }
            let written = fs::read(d.join(&output)).unwrap();
            assert!(
                references.contains(&written),
                "{command:?}, attempt {attempt}: the output is neither run's whole output"
            );
            assert!(temp_files(d).is_empty(), "{:?}", temp_files(d));
            fs::remove_file(d.join(&output)).unwrap();
        }
    }
}
