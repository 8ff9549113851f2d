//! The one boundary between the page and the engine: the envelope of the
//! messages the app posts to the worker ([`Request`]) and the worker posts
//! back ([`Response`]). Each part of the product speaks its own messages,
//! defined in its folder (`parts/<part>/protocol.rs`) and carried by one
//! variant here; adding a part adds one variant to each enum.
//!
//! Every message travels as a plain JS object `{ msg, file? }`: `msg` is the
//! serde value (via `serde-wasm-bindgen`), and `file` — only with an import
//! ([`TracesRequest::Import`]) or a workspace bundle opened
//! ([`BundleRequest::Open`]) — is the user's `File`/`Blob` itself, which the
//! browser hands to the worker by structured clone (a reference to the same
//! bytes, never a copy through wasm memory).

use crate::parts::agenda::protocol::{AgendaRequest, AgendaResponse};
use crate::parts::bundle::protocol::{BundleRequest, BundleResponse};
use crate::parts::forecast::protocol::{ForecastRequest, ForecastResponse};
use crate::parts::harvest::cycles::protocol::{CyclesRequest, CyclesResponse};
use crate::parts::harvest::protocol::{HarvestRequest, HarvestResponse};
use crate::parts::harvest::storage::protocol::{StorageRequest, StorageResponse};
use crate::parts::pricing::protocol::{PricingRequest, PricingResponse};
use crate::parts::runway::protocol::{RunwayRequest, RunwayResponse};
use crate::parts::shaping::protocol::{ShapingRequest, ShapingResponse};
use crate::parts::slos::protocol::{SlosRequest, SlosResponse};
use crate::parts::traces::protocol::{TracesRequest, TracesResponse};
use crate::parts::tuning::protocol::{TuningRequest, TuningResponse};
use crate::toolkit::protocol::Supersedes;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Blob;

/// Property of the posted object that holds the serialized message.
const MSG: &str = "msg";
/// Property of the posted object that holds a file travelling with it.
const FILE: &str = "file";
/// Property of a posted request that holds the page's sequence number of
/// it, which [`Response::Handled`] echoes.
const SEQ: &str = "seq";

/// What the app asks of the worker: one variant per part of the product.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Request {
    /// The loaded files: imports, the demo, charts of what is loaded.
    Traces(TracesRequest),
    /// The SLOs panel: inferred SLOs, skyline fits, decisions.
    Slos(SlosRequest),
    /// The Agenda panel's plan.
    Agenda(AgendaRequest),
    /// The Pricing panel's estimates, quotes and queue.
    Pricing(PricingRequest),
    /// A series' forecasts (shown in the Traces panel).
    Forecast(ForecastRequest),
    /// The Tuning panel's scheduler configurations.
    Tuning(TuningRequest),
    /// The Harvest panel's tenants, classes, selection and simulation.
    Harvest(HarvestRequest),
    /// The Shaping panel's runs, timelines, policies and grid.
    Shaping(ShapingRequest),
    /// The workspace as one bundle file: save, open.
    Bundle(BundleRequest),
    /// The Runway panel: the runway, purchases and levers; its settings.
    Runway(RunwayRequest),
}

/// What the worker tells the app: the worker's own news, then one variant
/// per part of the product.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Response {
    /// The worker has restored the saved workspace and takes requests now.
    /// Nothing sent before this arrives would be read.
    Ready,
    /// The worker has answered request `seq` (the page's sequence number
    /// of it) and every earlier one, or dropped those a later request
    /// supersedes. The page's link keeps each request until this arrives,
    /// so a restarted worker gets again what the old one had not finished.
    Handled {
        /// The request's sequence number.
        seq: u32,
    },
    /// Something went wrong outside a part's own work (storage, a malformed
    /// message).
    Notice {
        /// What happened, in words.
        message: String,
    },
    /// An answer about the loaded files.
    Traces(TracesResponse),
    /// An answer to a [`Request::Slos`].
    Slos(SlosResponse),
    /// An answer to a [`Request::Agenda`].
    Agenda(AgendaResponse),
    /// An answer to a [`Request::Pricing`].
    Pricing(PricingResponse),
    /// An answer to a [`Request::Forecast`].
    Forecast(ForecastResponse),
    /// An answer to a [`Request::Tuning`].
    Tuning(TuningResponse),
    /// An answer to a [`Request::Harvest`].
    Harvest(HarvestResponse),
    /// An answer to a [`Request::Shaping`].
    Shaping(ShapingResponse),
    /// An answer to a [`Request::Bundle`].
    Bundle(BundleResponse),
    /// An answer to a [`Request::Runway`].
    Runway(RunwayResponse),
}

impl Request {
    /// What supersedes this request while it waits in the worker's queue: a
    /// later request with the same key (each part's request says it).
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            Request::Traces(r) => r.supersedes_key(),
            Request::Slos(r) => r.supersedes_key(),
            Request::Agenda(r) => r.supersedes_key(),
            Request::Pricing(r) => r.supersedes_key(),
            Request::Forecast(r) => r.supersedes_key(),
            Request::Tuning(r) => r.supersedes_key(),
            Request::Harvest(r) => r.supersedes_key(),
            Request::Shaping(r) => r.supersedes_key(),
            Request::Bundle(r) => r.supersedes_key(),
            Request::Runway(r) => r.supersedes_key(),
        }
    }

    /// The run this request asks for, if it is a ticketed run: by the
    /// toolkit's convention every ticketed request names its run in a
    /// field `ticket` (echoed in its `Progress`, answer and `Failure`), and
    /// every request enum is internally tagged, so the field sits at the
    /// top of the serialized request whatever the part. The page drops the
    /// requests of cancelled runs by it when the worker restarts.
    pub fn ticket(&self) -> Option<u32> {
        let value = serde_json::to_value(self).ok()?;
        let ticket = value.get("ticket")?.as_u64()?;
        u32::try_from(ticket).ok()
    }
}

/// Each part's messages go into the envelope's variant of the part, so a
/// desk sends its own request and a part host posts its own response.
macro_rules! enveloped {
    ($($part:ident: $request:ty, $response:ty;)*) => {$(
        impl From<$request> for Request {
            fn from(request: $request) -> Request {
                Request::$part(request)
            }
        }
        impl From<$response> for Response {
            fn from(response: $response) -> Response {
                Response::$part(response)
            }
        }
    )*};
}

enveloped! {
    Traces: TracesRequest, TracesResponse;
    Slos: SlosRequest, SlosResponse;
    Agenda: AgendaRequest, AgendaResponse;
    Pricing: PricingRequest, PricingResponse;
    Forecast: ForecastRequest, ForecastResponse;
    Tuning: TuningRequest, TuningResponse;
    Harvest: HarvestRequest, HarvestResponse;
    Shaping: ShapingRequest, ShapingResponse;
    Bundle: BundleRequest, BundleResponse;
    Runway: RunwayRequest, RunwayResponse;
}

/// A half of a part (Harvest's) goes into the part's variant, then into
/// the envelope.
macro_rules! half {
    ($message:ty => $envelope:ident::$part:ident, $wrap:expr) => {
        impl From<$message> for $envelope {
            fn from(message: $message) -> $envelope {
                $envelope::$part(($wrap)(message))
            }
        }
    };
}

half!(CyclesRequest => Request::Harvest, HarvestRequest::Cycles);
half!(CyclesResponse => Response::Harvest, HarvestResponse::Cycles);
half!(StorageRequest => Request::Harvest, |m| HarvestRequest::Storage(Box::new(m)));
half!(StorageResponse => Response::Harvest, |m| HarvestResponse::Storage(Box::new(m)));

/// Builds the object to post: `{ msg, file? }`.
///
/// # Errors
/// When `msg` cannot be converted to a JS value.
pub fn encode<T: Serialize>(msg: &T, file: Option<&Blob>) -> Result<JsValue, String> {
    let value = serde_wasm_bindgen::to_value(msg).map_err(|e| e.to_string())?;
    let envelope = js_sys::Object::new();
    js_sys::Reflect::set(&envelope, &MSG.into(), &value).map_err(|e| js_error_text(&e))?;
    if let Some(file) = file {
        js_sys::Reflect::set(&envelope, &FILE.into(), file).map_err(|e| js_error_text(&e))?;
    }
    Ok(envelope.into())
}

/// Reads a posted object back: the message and the file travelling with it.
///
/// # Errors
/// When the object has no `msg` property or it does not match `T`.
pub fn decode<T: DeserializeOwned>(data: &JsValue) -> Result<(T, Option<Blob>), String> {
    let value = js_sys::Reflect::get(data, &MSG.into()).map_err(|e| js_error_text(&e))?;
    if value.is_undefined() {
        return Err("message without a `msg` property".into());
    }
    let msg = serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())?;
    let file = js_sys::Reflect::get(data, &FILE.into())
        .ok()
        .and_then(|f| f.dyn_into::<Blob>().ok());
    Ok((msg, file))
}

/// Numbers a posted request (`encode`'s object) for [`Response::Handled`].
///
/// # Errors
/// When the object cannot take the property.
pub fn set_seq(message: &JsValue, seq: u32) -> Result<(), String> {
    js_sys::Reflect::set(message, &SEQ.into(), &JsValue::from(seq))
        .map(|_| ())
        .map_err(|e| js_error_text(&e))
}

/// The sequence number of a posted request, if the page gave it one.
pub fn seq_of(data: &JsValue) -> Option<u32> {
    js_sys::Reflect::get(data, &SEQ.into())
        .ok()?
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n))
        .map(|n| n as u32)
}

/// The readable text of a thrown JS value: a `DOMException`'s or `Error`'s
/// name and message, a string as is, anything else as JSON.
pub fn js_error_text(err: &JsValue) -> String {
    if let Some(e) = err.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", e.name(), e.message());
    }
    if let Some(e) = err.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    if let Some(s) = err.as_string() {
        return s;
    }
    if err.is_undefined() || err.is_null() {
        return "unknown error".into();
    }
    js_sys::JSON::stringify(err)
        .map(String::from)
        .unwrap_or_else(|_| format!("{err:?}"))
}

/// `performance.now()` of the calling thread (page or worker), in
/// milliseconds; `Date.now()` where there is no `performance`.
pub fn now_ms() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &"performance".into())
        .and_then(|perf| {
            let now = js_sys::Reflect::get(&perf, &"now".into())?;
            now.dyn_into::<js_sys::Function>()?.call0(&perf)
        })
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or_else(js_sys::Date::now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::harvest::cycles::protocol::SimSettings as CyclesSim;
    use crate::parts::harvest::storage::protocol::StorageSettings;
    use crate::parts::pricing::protocol::SimSettings as PricingSim;
    use crate::parts::shaping::protocol::ShapingSettings;
    use crate::parts::traces::protocol::TracesRequest;

    #[test]
    fn a_ticketed_request_names_its_run_whatever_the_part() {
        let requests: Vec<(Request, Option<u32>)> = vec![
            (
                PricingRequest::Simulate {
                    ticket: 3,
                    settings: PricingSim::default(),
                }
                .into(),
                Some(3),
            ),
            (
                AgendaRequest::Optimize {
                    ticket: 4,
                    locked: vec![1],
                }
                .into(),
                Some(4),
            ),
            // The halves of Harvest nest a level deeper in the envelope.
            (
                CyclesRequest::Simulate {
                    ticket: 5,
                    settings: CyclesSim::default(),
                }
                .into(),
                Some(5),
            ),
            (
                StorageRequest::Durability {
                    ticket: 6,
                    settings: StorageSettings::default(),
                }
                .into(),
                Some(6),
            ),
            (
                ShapingRequest::Run {
                    ticket: 7,
                    settings: ShapingSettings::default(),
                }
                .into(),
                Some(7),
            ),
            (TracesRequest::Summary.into(), None),
            (AgendaRequest::Undo.into(), None),
            (ShapingRequest::ExportRun.into(), None),
        ];
        for (request, ticket) in requests {
            assert_eq!(request.ticket(), ticket, "{request:?}");
        }
    }
}
