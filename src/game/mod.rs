//! Game sessions.

pub mod effects;
pub mod event;
pub mod location;
pub mod offline;
pub mod pg;
pub mod scenario;
pub mod sequence;
pub mod session;
pub mod state;
pub mod store;
pub mod visibility;

pub use event::{CounterChange, Cursor, Event, EventKind};
pub use location::Location;
pub use session::{Action, Game, GameError, Status};
pub use state::{CounterState, GameState};
pub use store::{GameFile, GameMeta, Journal, StoreError};
