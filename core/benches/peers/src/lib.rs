//! Nothing: this package only holds the peer comparison bench (benches/peers.rs).
