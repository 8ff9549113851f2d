//! Independent jobs on the machine's cores, natively; one after another in
//! the browser, where the engine runs in a single worker with no threads.
//!
//! Results come back in job order whatever the thread count, and each job
//! is a pure function of its input, so a run is the same on one core or
//! many — only its time changes.

/// How many threads `requested` means: 0 is every core natively; the
/// browser (wasm32) always has one.
pub fn thread_count(requested: usize) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = requested;
        1
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        if requested == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            requested
        }
    }
}

/// Runs `work` on every job with up to `threads` threads (see
/// [`thread_count`]), each thread with its own scratch from `scratch`, and
/// returns the results in job order. `progress(done, total)` is called on
/// the calling thread after each job.
pub fn map_jobs<J, S, R>(
    jobs: &[J],
    threads: usize,
    scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &J) -> R + Sync,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<R>
where
    J: Sync,
    R: Send,
{
    let total = jobs.len();
    map_jobs_until(
        jobs,
        threads,
        scratch,
        work,
        &mut |done, _, _| progress(done, total),
        &|| false,
    )
    .into_iter()
    .flatten()
    .collect()
}

/// [`map_jobs`] that can be stopped: no job starts once `stop()` is true
/// (it is asked before each one), the jobs under way finish, and the result
/// holds every finished job in job order, `None` for those never started.
/// `finished(done, index, result)` is called on the calling thread as each
/// job ends, in the order they end — a sweep shows its cells as they come
/// and keeps them when cancelled.
pub fn map_jobs_until<J, S, R>(
    jobs: &[J],
    threads: usize,
    scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &J) -> R + Sync,
    finished: &mut dyn FnMut(usize, usize, &R),
    stop: &(dyn Fn() -> bool + Sync),
) -> Vec<Option<R>>
where
    J: Sync,
    R: Send,
{
    let threads = thread_count(threads).min(jobs.len()).max(1);
    let total = jobs.len();
    let mut out: Vec<Option<R>> = (0..total).map(|_| None).collect();
    if threads == 1 {
        let mut s = scratch();
        for (i, j) in jobs.iter().enumerate() {
            if stop() {
                break;
            }
            let r = work(&mut s, j);
            finished(i + 1, i, &r);
            out[i] = Some(r);
        }
        return out;
    }
    #[cfg(target_arch = "wasm32")]
    unreachable!("one thread in the browser");
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        std::thread::scope(|sc| {
            let (tx, rx) = std::sync::mpsc::channel();
            for _ in 0..threads {
                let tx = tx.clone();
                let (next, scratch, work) = (&next, &scratch, &work);
                sc.spawn(move || {
                    let mut s = scratch();
                    loop {
                        if stop() {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(j) = jobs.get(i) else { break };
                        if tx.send((i, work(&mut s, j))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (done, (i, r)) in rx.into_iter().enumerate() {
                finished(done + 1, i, &r);
                out[i] = Some(r);
            }
        });
        // A job that panicked has already panicked the scope above.
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_job_order_and_progress_counts_up() {
        let jobs: Vec<u64> = (0..37).collect();
        for threads in [1, 2, 3, 0] {
            let mut seen = Vec::new();
            let out = map_jobs(
                &jobs,
                threads,
                || 0u64,
                |calls, &j| {
                    *calls += 1;
                    j * j
                },
                &mut |d, t| seen.push((d, t)),
            );
            assert_eq!(out, jobs.iter().map(|j| j * j).collect::<Vec<_>>());
            assert_eq!(seen, (1..=37).map(|d| (d, 37)).collect::<Vec<_>>());
        }
        assert!(map_jobs(&[] as &[u8], 2, || (), |_, _| 0, &mut |_, _| {}).is_empty());
    }

    #[test]
    fn a_stopped_run_keeps_the_jobs_it_finished() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let jobs: Vec<u64> = (0..40).collect();
        for threads in [1, 2, 3] {
            // Stop once five jobs have ended: at most `threads` more were
            // under way then, and nothing after them starts.
            let ended = AtomicUsize::new(0);
            let mut order = Vec::new();
            let out = map_jobs_until(
                &jobs,
                threads,
                || (),
                |_, &j| {
                    ended.fetch_add(1, Ordering::SeqCst);
                    j + 100
                },
                &mut |done, i, r| {
                    assert_eq!(*r, i as u64 + 100);
                    order.push(done);
                },
                &|| ended.load(Ordering::SeqCst) >= 5,
            );
            let kept: Vec<usize> = (0..40).filter(|&i| out[i].is_some()).collect();
            assert!(
                kept.len() >= 5 && kept.len() < 5 + threads,
                "{threads}: {kept:?}"
            );
            for &i in &kept {
                assert_eq!(out[i], Some(i as u64 + 100));
            }
            assert_eq!(order, (1..=kept.len()).collect::<Vec<_>>());
        }
    }
}
