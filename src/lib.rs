//! # cpbim
//!
//! A threat-space solver for Connect6 and the k-in-a-row family (Gomoku, Renju,
//! Connect(m,n,k,p,q)) built on the connection-pattern incremental model (CPBIM) of Xu, Ma and
//! Xu.
//!
//! Modules follow the data flow: [`game`], [`geom`], [`board`] and [`renju`] (the games, their
//! rules and the plain board) →
//! [`notation`] (reading and writing positions) → [`kb`] (the build-time knowledge base) →
//! [`model`] (the four position models behind one trait) → [`search`] (the double-threat
//! solver) → [`prove`] (proof search above it: so far the relevance zone of a proof) → [`batch`], [`testsets`], [`problems`], [`bench`] (many positions, published
//! problems, the benchmarks) and
//! [`opening`], [`analyze`] (opening names, move-by-move analysis of a line) → [`engine`],
//! [`protocol`], [`matches`] (playing) → [`server`] (the analysis board in the browser); [`files`] writes every file whole or not
//! at all.

#![deny(missing_docs)]

pub mod analyze;
pub mod batch;
pub mod bench;
pub mod board;
pub mod engine;
pub mod files;
pub mod five_openings;
pub mod game;
pub mod games;
pub mod geom;
pub mod kb;
pub mod limits;
pub mod matches;
pub mod model;
pub mod notation;
pub mod opening;
pub mod problems;
pub mod protocol;
pub mod prove;
pub mod record;
pub mod renju;
pub mod report;
pub mod search;
pub mod server;
pub mod testsets;
pub mod text;
pub mod tune;
pub mod zobrist;

pub use board::{Board, Position, PositionError, Run};
pub use game::{Game, Rule};
pub use geom::{ByColor, Color, Dir, Point, PointSet};
pub use model::{Cpbim, Cpbm, Iu, Model, Raw};
pub use notation::{parse_line, parse_position, parse_record, Format, ParseError, Reading};
pub use record::{Record, Win};
