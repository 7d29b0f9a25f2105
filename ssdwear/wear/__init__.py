"""The maths, pure (the clock is passed in): wear rates and the years they leave (rates.py), the calibrated
prediction intervals (forecast.py and calibration.json, which bench/calibrate.py fits), spare area's write
amplification (spare.py)."""
