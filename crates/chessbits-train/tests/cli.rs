//! The `chessbits-train` binary: a whole run's outputs, and bad input as typed messages.

use chessbits_engine::datagen::format::header;
use chessbits_engine::eval::nnue::Network;

use crate::common::{random_games, run_train, write_games};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_run_writes_the_network_its_recipe_the_csv_and_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("a.cbtd");
    write_games(&data, &random_games(15, 9));
    let net = dir.path().join("net.nnue");
    let (csv, png) = (dir.path().join("loss.csv"), dir.path().join("loss.png"));
    let p = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let out = run_train(&[
        "--data",
        &p(&data),
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--batch",
        "512",
        "-o",
        &p(&net),
        "--csv",
        &p(&csv),
        "--plot",
        &p(&png),
        "--keep-best",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(Network::load(&net).unwrap().hidden, 8);
    let csv = std::fs::read_to_string(csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "epoch,train_loss,validation_loss,seconds");
    assert_eq!(lines.len(), 3);
    assert!(lines[2].starts_with("2,0."));
    assert!(std::fs::read(png).unwrap().starts_with(b"\x89PNG\r\n\x1a\n"));
    let recipe = std::fs::read_to_string(dir.path().join("net.nnue.recipe")).unwrap();
    let sha = chessbits_train::recipe::file_sha256(&data).unwrap();
    assert!(recipe.contains(&format!("a.cbtd sha256={sha}")), "{recipe}");
    for key in [
        "seed: 1",
        "epochs: 2",
        "lambda: 0.75",
        "(768 -> 8)x2 -> 1",
        "final validation loss: 0.",
        "(the lowest validation loss, 0.",
    ] {
        assert!(recipe.contains(key), "{key} missing from {recipe}");
    }
}

#[test]
fn bad_input_is_a_message_and_a_failure_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("net.nnue");
    let net = net.to_str().unwrap();
    let check = |args: &[&str], expected: &str| {
        let out = run_train(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    };
    let missing = dir.path().join("missing.cbtd");
    check(&["--data", missing.to_str().unwrap(), "-o", net], "missing.cbtd");

    let garbage = dir.path().join("garbage.cbtd");
    std::fs::write(&garbage, b"this is not training data at all").unwrap();
    check(&["--data", garbage.to_str().unwrap(), "-o", net], "bad magic");

    // A valid file whose second game is cut off, then one with a flipped byte in a game.
    let games = random_games(3, 1);
    let good = dir.path().join("good.cbtd");
    write_games(&good, &games);
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.path().join("truncated.cbtd");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    check(
        &["--data", truncated.to_str().unwrap(), "-o", net],
        "truncated.cbtd: the file ends inside game 2",
    );
    let mut corrupt = bytes.clone();
    corrupt[header().len() + 12] ^= 0x5A;
    let corrupt_path = dir.path().join("corrupt.cbtd");
    std::fs::write(&corrupt_path, &corrupt).unwrap();
    check(
        &["--data", corrupt_path.to_str().unwrap(), "-o", net],
        "corrupt.cbtd: game 0",
    );

    let empty = dir.path().join("empty.cbtd");
    std::fs::write(&empty, header()).unwrap();
    check(&["--data", empty.to_str().unwrap(), "-o", net], "no training position");
    check(
        &["--data", good.to_str().unwrap(), "-o", net, "--hidden", "0"],
        "--hidden",
    );
    check(
        &["--data", good.to_str().unwrap(), "-o", net, "--lambda", "2"],
        "--lambda",
    );
    check(
        &["--data", good.to_str().unwrap(), "-o", net, "--hidden", "x"],
        "invalid value",
    );
    let unwritable = dir.path().join("no/such/dir/net.nnue");
    check(
        &[
            "--data",
            good.to_str().unwrap(),
            "-o",
            unwritable.to_str().unwrap(),
            "--epochs",
            "1",
        ],
        "net.nnue",
    );
    assert!(!std::path::Path::new(net).exists());
}
