//! The studio page: mounts the Leptos app, which starts the engine worker.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(skyplan_web::app::App);
}
