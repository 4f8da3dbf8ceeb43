;;; emacs_test.el --- upskilld in a real Emacs with Debian's eglot, in batch  -*- lexical-binding: t -*-
;; Opens src/warp.cu of the cuda_tree project in c-mode with eglot talking to `upskilld --lsp':
;; the lint diagnostic arrives on line 3 through flymake; in src/heavy.cu a hover on the kernel
;; shows its resources, and eglot-shutdown stops the daemon cleanly (shutdown and exit as eglot sends
;; them, "params": null included). Writes TAP to $UPK_TAP_OUT.
(require 'eglot)
(require 'flymake)

(defvar upk-tap '())
(defvar upk-n 0)
(defun upk-check (name ok &optional detail)
  (setq upk-n (1+ upk-n))
  (push (format "%s %d - %s%s" (if ok "ok" "not ok") upk-n name
                (if (and (not ok) detail) (format "\n# %s" detail) ""))
        upk-tap))

(defun upk-wait (pred seconds)
  "Run the event loop until PRED is true or SECONDS pass; PRED's last value."
  (let ((deadline (+ (float-time) seconds)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))

(let* ((tree (getenv "UPK_TREE"))
       (proj (file-name-as-directory (expand-file-name "proj" tree)))
       (daemon (getenv "UPSKILLD"))
       (eglot-server-programs `((c-mode . (,daemon "--lsp"))))
       (eglot-sync-connect t)
       (eglot-autoshutdown nil)
       (default-directory proj)
       server)
  (add-to-list 'auto-mode-alist '("\\.cu\\'" . c-mode))
  (find-file (expand-file-name "src/warp.cu" proj))
  (setq server (eglot '(c-mode) (project-current nil proj) 'eglot-lsp-server
                      (list daemon "--lsp") "cuda"))
  (upk-check "eglot connects to upskilld --lsp" (and server (jsonrpc-running-p server)))
  (flymake-mode 1)
  (let ((diag (upk-wait (lambda ()
                          (flymake-start)
                          (seq-find (lambda (d) (string-match-p "deprecated-warp-intrinsic\\|__shfl_down"
                                                                (flymake-diagnostic-text d)))
                                    (flymake-diagnostics)))
                        60)))
    (upk-check "the lint diagnostic arrives on line 3"
               (and diag (= 3 (line-number-at-pos (flymake-diagnostic-beg diag))))
               (format "%S" (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))))
  (find-file (expand-file-name "src/heavy.cu" proj)) ; warp.cu has no figures: it does not compile
  (eglot--maybe-activate-editing-mode)
  (goto-char (point-min))
  (search-forward "void heavy")
  (backward-char 2) ; on the kernel's name
  (let ((hover (upk-wait (lambda ()
                           (condition-case err
                               (jsonrpc-request server :textDocument/hover
                                                (eglot--TextDocumentPositionParams))
                             (error (format "error: %S" err))))
                         30)))
    (upk-check "hover on a kernel: its resources and occupancy by block size"
               (and (string-match-p "heavy" (format "%S" hover))
                    (string-match-p "| 1024 |" (format "%S" hover)))
               (format "%S" hover)))
  ;; eglot 1.9 on Emacs 28 deletes the process right after sending exit (clangd too gets
  ;; signal 9), so what a server can get right is the shutdown answer: before "params": null
  ;; was accepted it was -32600, and eglot-shutdown failed with that error.
  (let ((failure (condition-case err (progn (eglot-shutdown server) nil)
                   (error (format "%S" err)))))
    (upk-check "eglot-shutdown: shutdown answered, exit sent, no error" (null failure) failure)))

(with-temp-file (getenv "UPK_TAP_OUT")
  (insert (format "1..%d\n" upk-n))
  (dolist (line (reverse upk-tap)) (insert line "\n")))
(kill-emacs 0)
