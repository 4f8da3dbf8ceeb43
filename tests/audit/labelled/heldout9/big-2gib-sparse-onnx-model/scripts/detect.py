import sys
import onnxruntime as ort
sess = ort.InferenceSession("models/detector.onnx")
print([i.name for i in sess.get_inputs()], sys.argv[1])
