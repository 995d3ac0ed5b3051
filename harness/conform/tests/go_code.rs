//! The Go code under `adapters/` stays clean: every Go file is gofmt-formatted, the protocol
//! loop (`adapters/go-protocol/`) and the template (`adapters/template-go/`) pass `go vet`, and
//! the loop's own tests pass. (The library adapters need their modules from the proxy: their
//! `install.sh` vets them after downloading.) Skipped with a message where `go` is absent.

mod common;

#[test]
fn every_go_file_is_gofmt_formatted() {
    let adapters = common::adapters_dir();
    let Some(goroot) = common::go(&adapters, &["env", "GOROOT"]) else {
        return;
    };
    // The gofmt of that Go (it ships with it), whatever else is on the PATH.
    let gofmt = std::path::Path::new(common::text(&goroot.stdout).trim()).join("bin/gofmt");
    let listed = std::process::Command::new(&gofmt)
        .args(["-l", "."])
        .current_dir(&adapters)
        .output()
        .expect("gofmt runs where go does");
    common::assert_success("gofmt -l adapters", &listed);
    let unformatted = common::text(&listed.stdout);
    assert!(
        unformatted.is_empty(),
        "not gofmt-formatted:\n{unformatted}"
    );
}

#[test]
fn the_go_protocol_loop_and_template_vet_clean() {
    for module in ["go-protocol", "template-go"] {
        let Some(out) = common::go(&common::adapters_dir().join(module), &["vet", "./..."]) else {
            return;
        };
        common::assert_success(&format!("go vet adapters/{module}"), &out);
    }
}

#[test]
fn the_go_protocol_loop_passes_its_tests() {
    let dir = common::adapters_dir().join("go-protocol");
    let Some(out) = common::go(&dir, &["test", "-count=1", "./..."]) else {
        return;
    };
    common::assert_success("go test adapters/go-protocol", &out);
}
