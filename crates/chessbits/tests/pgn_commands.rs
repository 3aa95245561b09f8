//! Comment commands on real games: every `[%clk ...]` and `[%eval ...]` of the bundled lichess
//! games parses, and gives back its text; the comments stay byte for byte as they were.

use crate::common;

use std::time::Duration;

use chessbits::pgn::{self, Comment, Eval, Line, Node};

/// Every argument text of `[%name ...]` in `text`, found by plain substring search (independent of
/// the library's command scanner).
fn raw_args<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let prefix = format!("[%{name} ");
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&prefix) {
        rest = &rest[start + prefix.len()..];
        let end = rest.find(']').expect("closed command");
        found.push(&rest[..end]);
        rest = &rest[end..];
    }
    found
}

fn clock_text(clock: Duration) -> String {
    let s = clock.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[derive(Default)]
struct Counts {
    clocks: usize,
    evals: usize,
}

fn check_comment(comment: &Comment, counts: &mut Counts) {
    let text = comment.text();
    let clocks = raw_args(&text, "clk");
    let evals = raw_args(&text, "eval");
    assert!(clocks.len() <= 1 && evals.len() <= 1, "{text}");
    if let Some(raw) = clocks.first() {
        let clock = comment.clock().unwrap_or_else(|| panic!("{text}"));
        assert_eq!(clock.subsec_nanos(), 0, "{text}");
        assert_eq!(clock_text(clock), *raw);
        counts.clocks += 1;
    } else {
        assert_eq!(comment.clock(), None);
    }
    if let Some(raw) = evals.first() {
        let eval: Eval = comment.eval().unwrap_or_else(|| panic!("{text}"));
        assert_eq!(eval.to_string(), *raw);
        counts.evals += 1;
    } else {
        assert_eq!(comment.eval(), None);
    }
}

fn check_line(line: &Line, counts: &mut Counts) {
    for node in &line.nodes {
        check_node(node, counts);
    }
}

fn check_node(node: &Node, counts: &mut Counts) {
    for comment in node.comments_before.iter().chain(&node.comments_after) {
        check_comment(comment, counts);
    }
    let first = node
        .comments_after
        .iter()
        .find_map(|c| raw_args(&c.text(), "clk").first().map(|s| s.to_string()));
    assert_eq!(node.clock().map(clock_text), first);
    for variation in &node.variations {
        check_line(variation, counts);
    }
}

#[test]
fn lichess_clocks_and_evals_parse_and_give_back_their_text() {
    lichess_commands(&common::testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_lichess_clocks_and_evals_parse_and_give_back_their_text() {
    lichess_commands(&common::shared_path());
}

fn lichess_commands(root: &std::path::Path) {
    let path = root.join("pgn/shakmaty_lichess_db_1000k.pgn");
    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let mut counts = Counts::default();
    for game in pgn::read_file(&path).unwrap() {
        check_line(&game.unwrap().moves, &mut counts);
    }
    // Every command of the file was seen (the file has no other place for them).
    assert_eq!(counts.clocks, text.matches("[%clk ").count());
    assert_eq!(counts.evals, text.matches("[%eval ").count());
    assert!(
        counts.clocks > 1000 && counts.evals > 100,
        "{} {}",
        counts.clocks,
        counts.evals
    );
}

#[test]
fn commands_leave_the_comment_bytes_alone() {
    let pgn = "1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 {\u{e9}[%csl Gd4][%cal Re2e4]} *";
    let game = pgn::GameTree::from_pgn(pgn).unwrap();
    let before = game.to_pgn();
    let [e4, e5] = &game.moves.nodes[..] else { panic!() };
    assert_eq!(e4.clock(), Some(Duration::from_secs(180)));
    assert_eq!(e5.shapes().len(), 2);
    assert_eq!(e5.clock(), None);
    assert_eq!(game.to_pgn(), before);
    assert_eq!(
        e5.comments_after[0].as_bytes(),
        "\u{e9}[%csl Gd4][%cal Re2e4]".as_bytes()
    );
}
