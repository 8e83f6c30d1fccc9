print("truetrack")
