//! Game sessions: a scenario folded into a state by a journal of events. An action is checked
//! on a read-only view (`check`), passed through the actor's gate (`gate`: a remit), committed
//! to the journal (`journal`: the game file or a server, hash-chained) and folded in (`state`).

pub mod action;
pub mod arrivals;
pub mod audit;
pub mod board;
pub mod check;
pub mod deck;
pub mod describe;
pub mod effects;
pub mod event;
pub mod export;
pub mod face;
pub mod gate;
pub mod hex;
pub mod journal;
pub mod names;
pub mod order_checks;
pub mod orders;
pub mod output;
pub mod people;
pub mod records;
pub mod refusal;
pub mod scenario;
pub mod sealed;
pub mod sequence;
pub mod session;
pub mod side;
pub mod state;
pub mod steps;
pub mod timeline;
pub mod transcribed;
pub mod verify;
pub mod victory;
pub mod visibility;
pub mod words;

pub use action::{Action, DeckOp, Edit, Seen};
pub use event::{CounterChange, Cursor, Event, EventKind, VictoryFact, VictoryResult};
pub use gate::Actor;
pub use gate::Gate;
pub use journal::{
    BUSY_WAIT, GameFile, GameMeta, Head, Location, PublicMeta, Store, StoreError, is_game_file,
    on_busy_wait,
};
pub use names::{CounterId, Names, ProcedureId, SideId, side_in};
pub use refusal::{GameError, Refusal, SetupError};
pub use session::{Game, Status};
pub use state::{CounterState, GameState};
pub use timeline::{Step, Steps, Timeline};
pub use verify::{Line, Problem, SeedCheck, Verification};
