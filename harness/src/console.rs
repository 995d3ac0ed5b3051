//! Lines for the person at the terminal that survive the reader going away. `eprintln!` and
//! `println!` panic ("failed printing to stderr: Broken pipe", exit 101) when their stream is a
//! closed pipe, as in `bip37-conform fuzz ... 2>&1 | head`; these write the line and ignore a
//! failure, so the command goes on and ends with the exit code its work earned. The command
//! line (`bip37-conform`, `bip37-vectorgen`) uses them for every diagnostic line; reports on
//! stdout go through bip37-conform's `cli::output::print`, which says so when stdout fails for
//! another reason.

/// `eprintln!` that never panics: a line on stderr, dropped if stderr cannot take it.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stderr(), $($arg)*);
    }};
}

/// `println!` that never panics: a line on stdout, dropped if stdout cannot take it.
#[macro_export]
macro_rules! say_out {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stdout(), $($arg)*);
    }};
}
