//! Game sessions.

pub mod effects;
pub mod event;
pub mod scenario;
pub mod sequence;
pub mod session;
pub mod state;
pub mod store;

pub use event::{CounterChange, Cursor, Event, EventKind};
pub use session::{Action, Game, GameError, Status};
pub use state::{CounterState, GameState};
pub use store::{GameFile, GameMeta, StoreError};
