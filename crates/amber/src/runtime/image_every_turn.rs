//! The image test mode ([`RuntimeBuilder::image_every_turn`], `AMBER_IMAGE_EVERY_TURN=1`,
//! docs/testing.md): the run goes on from an image of itself at every turn of its event loop.

use super::*;

impl Runtime {
    /// One turn of the image test mode: an image of the run, decoded onto a fresh baseline
    /// copy with the host functions re-bound, replaces the VM, the way
    /// [`RuntimeBuilder::restore`] builds one. What lives outside the VM (the recorder,
    /// deliveries, the network) stays: a real restore gets it from the embedder. Replaying,
    /// the run cannot be imaged (see [`Runtime::snapshot`]) and goes on as it is.
    pub(super) fn continue_from_image(&mut self) -> Result<()> {
        if self.core.recorder.replaying() {
            return Ok(());
        }
        let options = self.core.vm.options.clone();
        let image = self.snapshot()?;
        let (_, payload) = decode_image(&image, self.image_key.as_deref())?;
        // Code blobs compiled since the embedder last took them are where the restore finds
        // them, and go on waiting in the new VM to be taken.
        let code_blobs = std::mem::take(&mut self.core.vm.code_blobs);
        let folder = self.lower.as_ref().map(|spec| spec.folder.clone());
        let recorded = &mut self.core.recorder.blobs;
        let mut blobs = |hash: &[u8; 32]| -> Option<Vec<u8>> {
            if let Some((_, bytes)) = code_blobs.iter().find(|(h, _)| h == hash) {
                return Some(bytes.to_vec());
            }
            let from_folder =
                folder.as_ref().and_then(|folder| folder.lock().ok()?.bytes(hash).ok().map(|b| b.to_vec()));
            from_folder.or_else(|| recorded.get(&Digest(*hash)).map(|b| b.to_vec()))
        };
        let start = with_kept_baseline(&options, Vm::independent_copy);
        let mut vm = Vm::decode_state_with_blobs(&payload, start, Some(&mut blobs)).map_err(Error::Image)?;
        // The switches of this process do not ride the image; a restoring embedder sets them.
        vm.options.gc_interval = options.gc_interval;
        vm.options.fast_tier = options.fast_tier;
        vm.code_blobs = code_blobs;
        rebind_host_functions(&mut vm, &self.policy);
        let state = take_durable_state(&mut vm)?;
        self.core.recorder.op_issue = state.op_issue.into_iter().collect();
        self.core.recorder.net_requests = state.net_requests.into_iter().collect();
        self.completion = state.completion;
        if let Some(spec) = &self.lower {
            vm.vfs.attach_lower(spec.folder.clone());
        }
        crate::secrets::reveal_in_vm(&self.core.recorder.secrets, &mut vm);
        let old = &self.core.vm;
        vm.print_hook = old.print_hook;
        vm.entropy_hook = old.entropy_hook;
        vm.touch_hook = old.touch_hook;
        vm.module_loader = old.module_loader;
        vm.gc_observer = old.gc_observer;
        self.core.vm = vm;
        Ok(())
    }
}
