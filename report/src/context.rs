//! What every section reads: the bundle, and the workspace its files make
//! (each file imported once, as the studio does on opening, with the
//! format and leniency it was loaded with).

use skyplan_engine::bundle::Bundle;
use skyplan_engine::import::ImportOptions;
use skyplan_engine::Workspace;

/// A bundle with its files read.
pub struct Context<'a> {
    /// The bundle.
    pub bundle: &'a Bundle,
    /// Its files, imported (those that could be) and its decisions.
    pub workspace: Workspace,
    /// Files that did not import: (name, the importer's reason).
    pub unread: Vec<(String, String)>,
}

impl<'a> Context<'a> {
    /// Imports the bundle's files into a workspace and records its
    /// decisions (the bundle was validated: one per job).
    pub fn new(bundle: &'a Bundle) -> Context<'a> {
        let mut workspace = Workspace::new();
        let mut unread = Vec::new();
        for f in &bundle.files {
            match f.load(ImportOptions::default()) {
                Ok(loaded) => {
                    workspace.add(loaded);
                }
                Err(e) => unread.push((f.name.clone(), e.to_string())),
            }
        }
        for d in &bundle.decisions {
            if let Err(e) = workspace.decide(d.clone()) {
                unread.push((format!("SLO decision of {}", d.job), e.to_string()));
            }
        }
        Context {
            bundle,
            workspace,
            unread,
        }
    }
}
