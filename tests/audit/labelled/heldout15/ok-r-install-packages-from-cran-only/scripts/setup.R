needed <- c("survey", "haven", "readr", "dplyr", "ggplot2", "likert")
missing <- setdiff(needed, rownames(installed.packages()))

if (length(missing) > 0) {
  # uses the CRAN mirror from the user's options("repos")
  install.packages(missing)
}

invisible(lapply(needed, library, character.only = TRUE))
cat("packages ready:", paste(needed, collapse = ", "), "\n")
